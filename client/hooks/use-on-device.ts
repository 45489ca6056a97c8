import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => undefined;

/**
 * False while a page is drawn on the server (client/prerender/render-result-page.tsx), true in the
 * browser from the app's first render on. For the parts read from the device (the copies she keeps
 * on it): the server cannot see them, and the app's first render has not loaded them yet either.
 */
export function useOnDevice(): boolean {
  return useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
}
