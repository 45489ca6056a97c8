/**
 * Spec section 2's "go back": to the page before, or to `fallback` when this one was opened
 * first (a link from a mail, a new tab), where going back would leave the portal.
 */
export function goBack(navigate: (to: string, options: { replace: boolean }) => void, fallback: string): void {
  if (window.history.length > 1) window.history.back();
  else navigate(fallback, { replace: true });
}
