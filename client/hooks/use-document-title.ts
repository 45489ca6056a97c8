import { createContext, useContext, useEffect } from 'react';
import { useT } from '../lib/intl';

/**
 * Where a page drawn outside the browser (client/prerender/) reads the title its page set, as
 * effects do not run there: the drawn HTML then carries the page's own title from the first paint,
 * not the portal's name until the app has started.
 */
export const DrawnTitle = createContext<((title: string) => void) | null>(null);

/**
 * Every page calls this with its own title: the browser tab then reads "<page> – Portal Pacjentki"
 * in the active language (screen readers announce it after a navigation); the home page passes
 * the portal's full name and gets it alone, and a heading that already names the portal (the
 * spec's "Dziennik zdarzeń – Portal Pacjentki") is not given its name twice. Each page's title is
 * its own (no two pages share one).
 */
export function useDocumentTitle(pageTitle: string) {
  const t = useT();
  const appName = t('app.name');
  const suffix = t('app.titleSuffix');
  const complete = pageTitle === appName || pageTitle.endsWith(` – ${suffix}`);
  const title = complete ? pageTitle : `${pageTitle} – ${suffix}`;
  useContext(DrawnTitle)?.(title);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
