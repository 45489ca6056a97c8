import { proxy } from 'valtio';
import { readConsent, writeConsent, type ConsentChoice } from './consent-cookie';

/** The dialog opens by itself while no consent cookie exists, and again from the footer. */
export const consentDialog = proxy({ isOpen: readConsent() === null });

/** What had focus when the dialog opened (the footer's link); nothing on a first visit. */
let focusBeforeDialog: HTMLElement | null = null;

export function openCookieSettings(): void {
  focusBeforeDialog = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  consentDialog.isOpen = true;
}

/**
 * Closes the dialog and puts focus back where it was: on the control that opened it, or, on a
 * first visit, at the start of the page's content. The dialog unmounts on the next render, so
 * focus moves after it is gone (react-aria's own restore would land on <body>).
 */
export function closeCookieDialog(): void {
  consentDialog.isOpen = false;
  const target = focusBeforeDialog;
  focusBeforeDialog = null;
  setTimeout(() => {
    const back = target?.isConnected && target !== document.body ? target : document.getElementById('main');
    back?.focus({ preventScroll: target === null });
  }, 0);
}

export function decideConsent(choice: ConsentChoice): void {
  writeConsent(choice);
  closeCookieDialog();
}
