import { useEffect } from 'react';
import { useT } from '../lib/intl';

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
  useEffect(() => {
    const complete = pageTitle === appName || pageTitle.endsWith(` – ${suffix}`);
    document.title = complete ? pageTitle : `${pageTitle} – ${suffix}`;
  }, [pageTitle, appName, suffix]);
}
