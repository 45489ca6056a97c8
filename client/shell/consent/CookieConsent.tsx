import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useSnapshot } from 'valtio';
import { consentDialog } from './consent-store';

// Returning visitors already decided: they never download the dialog.
const loadDialog = () => import('./CookieConsentDialog');
const LazyCookieConsentDialog = lazy(loadDialog);
let loadedDialog: ComponentType | undefined;

/**
 * Loads the dialog's code ahead, for the app's first render over a page drawn at build time
 * (main.tsx): that page already shows the dialog, so the app must not render it a moment later.
 */
export async function preloadCookieDialog(): Promise<void> {
  loadedDialog = (await loadDialog()).default;
}

export function CookieConsent() {
  const { isOpen } = useSnapshot(consentDialog);
  // Chosen once per mount: a loaded dialog renders without suspending (see preloadablePage).
  const [CookieConsentDialog] = useState(() => loadedDialog ?? LazyCookieConsentDialog);
  if (!isOpen) return null;
  return (
    <Suspense fallback={null}>
      <CookieConsentDialog />
    </Suspense>
  );
}
