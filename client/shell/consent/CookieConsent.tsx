import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { consentDialog } from './consent-store';

// Returning visitors already decided: they never download the dialog.
const CookieConsentDialog = lazy(() => import('./CookieConsentDialog'));

export function CookieConsent() {
  const { isOpen } = useSnapshot(consentDialog);
  if (!isOpen) return null;
  return (
    <Suspense fallback={null}>
      <CookieConsentDialog />
    </Suspense>
  );
}
