import { useEffect } from 'react';
import { useT } from '../lib/intl';

/**
 * Every page calls this with its own title: the browser tab then reads "<page> – Portal Pacjentki"
 * in the active language (screen readers announce it after a navigation); the home page passes
 * the portal's full name and gets it alone. Each page's title is its own (no two pages share one).
 */
export function useDocumentTitle(pageTitle: string) {
  const t = useT();
  const appName = t('app.name');
  const suffix = t('app.titleSuffix');
  useEffect(() => {
    document.title = pageTitle === appName ? appName : `${pageTitle} – ${suffix}`;
  }, [pageTitle, appName, suffix]);
}
