/**
 * Which navigations the service worker answers with the precached app shell (index.html).
 * Matched against `pathname + search` of the request, as workbox's NavigationRoute does.
 */
export const SHELL_NAVIGATION_DENYLIST: RegExp[] = [
  // The API answers for itself; a shell page in place of an API response would hide its status.
  /^\/api(\/|\?|$)/,
  // The sandbox payment provider's hosted checkout is the server's own page, not the app's: the
  // shell in its place would hide the page the patient must pay on.
  /^\/payment-sandbox(\/|\?|$)/,
  // A link straight to a file (a PDF opened in a new tab) must reach the file, not the shell.
  /\/[^/?]+\.[^/?]+(\?|$)/,
];

export function isAnsweredWithShell(pathnameAndSearch: string): boolean {
  return !SHELL_NAVIGATION_DENYLIST.some((pattern) => pattern.test(pathnameAndSearch));
}
