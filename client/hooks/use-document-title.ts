import { useEffect } from 'react';
import { useT } from '../lib/intl';

/**
 * Every page calls this with its own heading: the browser tab then reads "<page> – <portal name>"
 * in the active language (screen readers announce it after a navigation).
 */
export function useDocumentTitle(pageTitle: string) {
  const t = useT();
  const appName = t('app.name');
  useEffect(() => {
    document.title = pageTitle === appName ? appName : `${pageTitle} – ${appName}`;
  }, [pageTitle, appName]);
}
