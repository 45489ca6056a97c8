/**
 * The picture of the cookie dialog in a public page drawn at build time
 * (client/prerender/CookieDialogPicture.tsx) sits beside the app's root, not in it: React empties
 * the root at its first render, and the picture must stay on screen until the real dialog is in
 * its place. The real dialog mounts a frame after the app's first render, in a task of its own
 * (CookieConsent.tsx), as its focus, scroll lock and viewport measure each lay the page out again:
 * in the same task as the first render they made it a long one (issue 16, Lighthouse's Total
 * Blocking Time).
 */
export const DRAWN_COOKIE_DIALOG_ID = 'drawn-cookie-dialog';

/** Whether the page has the picture still, to be replaced by the real dialog. */
export function hasDrawnCookieDialog(): boolean {
  return typeof document !== 'undefined' && document.getElementById(DRAWN_COOKIE_DIALOG_ID) !== null;
}

/** Takes the picture away: the real dialog is in its place, or will not open. */
export function removeDrawnCookieDialog(): void {
  if (typeof document === 'undefined') return;
  document.getElementById(DRAWN_COOKIE_DIALOG_ID)?.remove();
}
