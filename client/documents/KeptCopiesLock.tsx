import { lazy, Suspense, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { usePinRequest } from './copies-lock';

// With the device database and the crypto: loaded only when a page finds her copies locked.
const UnlockCopies = lazy(() => import('./UnlockCopies'));

/**
 * Stands the PIN prompt in for a page that found her kept copies locked (issue 16); once her PIN
 * opened them, the page is shown afresh and reads them.
 */
export function KeptCopiesLock({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const ownerKey = usePinRequest(location);
  if (!ownerKey) return children;
  return (
    // Loaded in a moment from the device (the service worker has every chunk): nothing to announce.
    <Suspense fallback={null}>
      <UnlockCopies ownerKey={ownerKey} />
    </Suspense>
  );
}
