import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { Router } from 'wouter';
import { startIntl } from '../lib/intl';
import { App } from '../app/App';
import { preloadPage } from '../app/pages';
import { routeForPath } from '../routes/paths';
import { DrawnTitle } from '../hooks/use-document-title';
import { CookieDialogPicture } from './CookieDialogPicture';

/**
 * A page as drawn: its markup (the app's root), the picture of the cookie dialog a first visit
 * shows over it (beside the root: shell/consent/drawn-cookie-dialog.ts), and the title its page
 * set (the document's `<title>`).
 */
export type DrawnPage = { markup: string; cookieDialog: string; title: string };

/**
 * The markup of the whole app on `path` for a first visit, in the default language, with the
 * cookie dialog of a first visit, run at build time in Node (scripts/vite-prerender.ts). The page's code is loaded first: a component that
 * suspended would come out as hidden markup that only React's inline scripts reveal, and the
 * Content-Security-Policy allows no such script.
 */
export async function renderPublicPage(path: string): Promise<DrawnPage> {
  const route = routeForPath(path)?.route;
  if (route?.access !== 'public') throw new Error(`${path} is not a public page`);
  await Promise.all([startIntl(), preloadPage(route.name)]);
  let title: string | undefined;
  const markup = await drawn(
    path,
    <DrawnTitle value={(pageTitle) => (title = pageTitle)}>
      <Router ssrPath={path}>
        <App />
      </Router>
    </DrawnTitle>,
  );
  if (!title) throw new Error(`${path}: the page set no title`);
  return { markup, cookieDialog: await drawn(path, <CookieDialogPicture />), title };
}

async function drawn(path: string, element: ReactNode): Promise<string> {
  // React moves a large boundary's content out of place for streaming, behind the same scripts.
  const { prelude } = await prerender(element, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  const markup = await new Response(prelude).text();
  if (/<script/i.test(markup)) throw new Error(`${path}: a part of the page suspended while it was drawn at build time`);
  return markup;
}
