import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import { afterBuild } from './vite-after-build';
import { ROUTES } from '../client/routes/paths';
import { DRAWN_COOKIE_DIALOG_ID } from '../client/shell/consent/drawn-cookie-dialog';
import { escapeHtml } from '../server/lib/html';

/**
 * Writes each public page, as the app first renders it in Polish, into a copy of the built
 * index.html (`prerendered/<route>.html`, listed in `prerendered/pages.json` by path), which the
 * server sends for that path (server/lib/prerendered-pages.ts). A phone then paints the page as
 * soon as the HTML has arrived instead of after the app's code has loaded and run (issue 16,
 * Lighthouse). The app replaces the markup at its first render (main.tsx): `createRoot`, not
 * hydration, as the visitor's language, session or stored choices may differ from the build's.
 *
 * The copy is only a picture until then: `inert` keeps its links and forms from being used (a
 * form sent before the app runs would be a plain GET with its fields in the URL), and
 * `data-prerendered` on <html> hides it when the stored language is not Polish (styles/base.css).
 * It has no modulepreload links: its scripts download once it is painted, not beside the HTML on
 * a phone's slow link (scripts/vite-start-after-paint.ts; the pre-paint script waits likewise
 * with the catalog).
 * A page with a parameter in its path (a reset link's token) is drawn once, for every value of it.
 */
const PRERENDER_DIR = 'prerendered';
const PRERENDER_LIST = 'pages.json';
const ROOT = '<div id="root"></div>';
const HTML_TAG = /<html\b/;
const TITLE = /<title>[^<]*<\/title>/;

/**
 * index.html with `markup` in its root element and `title` as its title (already HTML, as a slot
 * for one may be), as the browser's first paint of the page; `cookieDialog`, the picture of the
 * cookie dialog, right after the root, where React's first render leaves it
 * (client/shell/consent/drawn-cookie-dialog.ts).
 */
export function pageHtml(indexHtml: string, markup: string, titleHtml: string, cookieDialog = ''): string {
  if (!indexHtml.includes(ROOT)) throw new Error(`index.html has no ${ROOT} to fill`);
  if (!HTML_TAG.test(indexHtml)) throw new Error('index.html has no <html> element');
  if (!TITLE.test(indexHtml)) throw new Error('index.html has no <title> element');
  return indexHtml
    .replace(HTML_TAG, '<html data-prerendered')
    .replace(TITLE, () => `<title>${titleHtml}</title>`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(
      ROOT,
      () => `<div id="root" inert>${markup}</div>${cookieDialog && `<div id="${DRAWN_COOKIE_DIALOG_ID}" inert>${cookieDialog}</div>`}`,
    );
}

/**
 * Every public page, by its path pattern, and the path it is drawn at: a parameter (the only one
 * is a reset link's token) drawn as PATH_PARAMETER, so the page shows what it shows for any
 * well-formed link until the app has asked the server ("checking the link").
 */
function prerenderablePaths(): { name: string; pattern: string; path: string }[] {
  return ROUTES.filter((route) => route.access === 'public').map(({ name, path }) => ({
    name,
    pattern: path,
    path: path.replace(/:[^/]+/g, PATH_PARAMETER),
  }));
}

/** What stands for a path parameter while a page is drawn (a token's shape); checked never to reach the markup. */
const PATH_PARAMETER = '00000000-0000-4000-8000-000000000000';

async function prerenderAll(config: ResolvedConfig): Promise<void> {
  const outDir = path.resolve(config.root, config.build.outDir);
  const indexHtml = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  // The client's own modules run in Node through Vite (JSX, JSON, the @common alias); CSS is skipped.
  const vite = await createServer({
    configFile: false,
    root: config.root,
    mode: 'production',
    logLevel: 'error',
    resolve: { alias: config.resolve.alias },
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    // workbox-window is CommonJS, which Node's ESM loader cannot take named exports from.
    ssr: { noExternal: ['workbox-window'] },
  });
  try {
    const { renderPublicPage } = (await vite.ssrLoadModule(
      '/prerender/render-public-page.tsx',
    )) as typeof import('../client/prerender/render-public-page');
    const dir = path.join(outDir, PRERENDER_DIR);
    mkdirSync(dir, { recursive: true });
    const list: Record<string, string> = {};
    for (const page of prerenderablePaths()) {
      const { markup, cookieDialog, title } = await renderPublicPage(page.path);
      if (markup.includes(PATH_PARAMETER)) throw new Error(`${page.pattern}: the drawn page shows its path parameter`);
      writeFileSync(path.join(dir, `${page.name}.html`), pageHtml(indexHtml, markup, escapeHtml(title), cookieDialog));
      list[page.pattern] = `${page.name}.html`;
    }
    writeFileSync(path.join(dir, PRERENDER_LIST), JSON.stringify(list, null, 2));
  } finally {
    await vite.close();
  }
}

export function prerenderPublicPages(): Plugin {
  return afterBuild('prerender-public-pages', 'pre', prerenderAll);
}
