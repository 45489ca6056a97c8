import { lazy, startTransition, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { consentDialog } from './consent-store';
import { hasDrawnCookieDialog, removeDrawnCookieDialog } from './drawn-cookie-dialog';

// Returning visitors already decided: they never download the dialog.
const loadDialog = () => import('./CookieConsentDialog');
const CookieConsentDialog = lazy(loadDialog);

/**
 * Starts loading the dialog's code while the app starts over a page drawn at build time (main.tsx),
 * whose picture of the dialog stands in until the real one mounts.
 */
export function preloadCookieDialog(): void {
  loadDialog().catch(() => undefined);
}

/**
 * Over a page drawn with the dialog's picture: false at the app's first render, true a frame
 * later, in a task of its own (drawn-cookie-dialog.ts says why). Rendered as a transition, which
 * React splits into short slices.
 */
function useAfterFirstFrame(wait: boolean): boolean {
  const [ready, setReady] = useState(!wait);
  useEffect(() => {
    if (ready) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A timeout started in the frame's callback runs after that frame is painted.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setReady(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready]);
  return ready;
}

/** Commits with the dialog's content (the same Suspense boundary): the picture goes as the dialog comes. */
function ReplacesDrawnPicture() {
  useLayoutEffect(removeDrawnCookieDialog, []);
  return null;
}

export function CookieConsent() {
  const { isOpen } = useSnapshot(consentDialog);
  const [overDrawnPicture] = useState(hasDrawnCookieDialog);
  const ready = useAfterFirstFrame(overDrawnPicture && isOpen);
  // A picture the dialog will not replace (a consent cookie exists: CSS hides it already) goes.
  useLayoutEffect(() => {
    if (!isOpen) removeDrawnCookieDialog();
  }, [isOpen]);
  if (!isOpen || !ready) return null;
  return (
    <Suspense fallback={null}>
      <CookieConsentDialog />
      <ReplacesDrawnPicture />
    </Suspense>
  );
}
