import { useEffect, useState } from 'react';
import stylesheetUrl from './images.css?url';

let loaded: Promise<void> | null = null;

/**
 * Links the viewer's stylesheet once, from its lazy chunk: the build puts every other stylesheet
 * into the one the home page loads (cssCodeSplit off), and the viewer's must not weigh on it. The
 * content security policy allows stylesheets from our origin, not inline <style>.
 */
function linkStylesheet(): Promise<void> {
  loaded ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = stylesheetUrl;
    // Without the styles the page still works: a failed load shows it unstyled rather than never.
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
  return loaded;
}

/** Whether the viewer's stylesheet is in place: the viewports measure their boxes only then. */
export function useViewerStylesheet(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let current = true;
    void linkStylesheet().then(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, []);
  return ready;
}
