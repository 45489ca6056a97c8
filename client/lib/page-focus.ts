/**
 * Where focus goes after a client-side navigation: to the new page's heading, so keyboard and
 * screen-reader users start reading the page they asked for (with its title announced) instead of
 * staying on a link that is gone, or at <body>. Kept outside React because a navigation may swap
 * the whole layout (signing in leaves the public frame for the signed-in one), which remounts the
 * Shell and would forget the previous location.
 */
let shownLocation: string | null = null;
/** A navigation happened and its page's heading has not been shown yet (a lazy or guarded page). */
let headingAwaited = false;

/** Whether nothing else has taken focus since the navigation: a user who tabbed on keeps her place. */
function focusIsFree(main: Element | null): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === main;
}

/**
 * Called by the Shell after each render with the current location: on a navigation, focus moves
 * to the page's heading if it is already there, else to <main> until the heading arrives.
 */
export function focusAfterNavigation(location: string, main: HTMLElement | null): void {
  const navigated = shownLocation !== null && shownLocation !== location;
  shownLocation = location;
  if (!navigated || !main) return;
  // While a page still loads (a lazy chunk), React keeps the previous one in the DOM, hidden: its
  // heading refuses focus, and the new page's heading claims it when it appears.
  const heading = main.querySelector<HTMLElement>('h1[tabindex="-1"]');
  heading?.focus({ preventScroll: true });
  if (heading && document.activeElement === heading) {
    headingAwaited = false;
  } else {
    headingAwaited = true;
    main.focus({ preventScroll: true });
  }
  window.scrollTo(0, 0);
}

/** Called by a page heading when it appears: it takes focus if the navigation is still waiting for it. */
export function claimFocusForHeading(heading: HTMLElement): void {
  if (!headingAwaited) return;
  headingAwaited = false;
  if (focusIsFree(heading.closest('main'))) heading.focus({ preventScroll: true });
}
