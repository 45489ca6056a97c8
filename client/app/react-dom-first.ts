// React DOM's own start-up (its module factory), run when its chunk is imported: the starter
// imports that chunk, yields to the browser, and only then imports the app, so a phone runs the
// two in separate short tasks instead of one long one (scripts/vite-start-after-paint.ts).
import 'react-dom/client';
