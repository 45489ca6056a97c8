import { useEffect, useState } from 'react';

/**
 * The moment for code and requests nobody waits for (the header's user menu, the version line):
 * once the page has loaded and the browser is next idle. On a phone's slow link, over HTTP/1.1's
 * six connections per host, they would otherwise queue ahead of what the page shows first, such
 * as the result page's sponsor logos (issue 4: Largest Contentful Paint).
 */
let afterLoad: Promise<void> | undefined;
let passed = false;

function whenIdle(resolve: () => void): void {
  // Safari has no requestIdleCallback: the next task is the closest it offers. A page that is
  // never idle still gets its menu within a second.
  if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 1_000 });
  else setTimeout(resolve, 0);
}

export function afterPageLoad(): Promise<void> {
  afterLoad ??= new Promise<void>((resolve) => {
    if (document.readyState === 'complete') whenIdle(resolve);
    else window.addEventListener('load', () => whenIdle(resolve), { once: true });
  }).then(() => void (passed = true));
  return afterLoad;
}

/** True once afterPageLoad resolved; later mounts (a client-side navigation) start true. */
export function useAfterPageLoad(): boolean {
  const [done, setDone] = useState(passed);
  useEffect(() => {
    if (done) return;
    let current = true;
    void afterPageLoad().then(() => current && setDone(true));
    return () => {
      current = false;
    };
  }, [done]);
  return done;
}
