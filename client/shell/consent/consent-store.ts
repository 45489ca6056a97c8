import { proxy } from 'valtio';
import { readConsent, writeConsent, type ConsentChoice } from './consent-cookie';

/** The dialog opens by itself while no consent cookie exists, and again from the footer. */
export const consentDialog = proxy({ isOpen: readConsent() === null });

export function openCookieSettings(): void {
  consentDialog.isOpen = true;
}

export function decideConsent(choice: ConsentChoice): void {
  writeConsent(choice);
  consentDialog.isOpen = false;
}
