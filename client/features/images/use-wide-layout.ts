import { useSyncExternalStore } from 'react';

/** Tablets and desktops hang all four views; a phone shows one at a time (images.css uses the same width). */
const WIDE = '(min-width: 48rem)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export const isWideLayout = (): boolean => window.matchMedia(WIDE).matches;

export function useWideLayout(): boolean {
  return useSyncExternalStore(subscribe, isWideLayout);
}
