import { useEffect, type RefObject } from 'react';

/** Room left between the focused control and the notifications above it, in CSS pixels. */
const CLEARANCE_PX = 8;

/** How far the element's lower edge reaches under the notifications' top edge (0: not at all). */
export function coveredBy(element: DOMRect, notificationsTop: number): number {
  return Math.max(0, element.bottom + CLEARANCE_PX - notificationsTop);
}

/**
 * The notifications sit fixed at the bottom of the window: a control that gets visible focus under
 * them (by Tab, or focused when a message appears) is scrolled up above them (WCAG 2.2 2.4.11), and the
 * page gets that much room at its end, so even its last control can rise above them.
 */
export function useKeepFocusUncovered(stack: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const region = stack.current;
    if (!region) return;
    const root = document.documentElement;

    // The window's lower part the messages take, from their top edge down; 0 while there are none.
    const coveredHeight = () => (region.querySelector('.notification') ? window.innerHeight - region.getBoundingClientRect().top : 0);

    const uncoverFocus = () => {
      const focused = document.activeElement;
      if (!(focused instanceof HTMLElement) || region.contains(focused) || focused === document.body) return;
      // Only focus she follows by eye (the keyboard's, or a text field's): moving the page under a
      // pointer between press and release would cancel the click she is making.
      if (!focused.matches(':focus-visible')) return;
      const height = coveredHeight();
      if (height <= 0) return;
      const overlap = coveredBy(focused.getBoundingClientRect(), window.innerHeight - height);
      if (overlap > 0) window.scrollBy({ top: overlap, behavior: 'instant' });
    };

    const observer = new ResizeObserver(() => {
      root.style.setProperty('--notifications-height', `${Math.ceil(coveredHeight())}px`);
      uncoverFocus();
    });
    observer.observe(region);
    document.addEventListener('focusin', uncoverFocus);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', uncoverFocus);
      root.style.removeProperty('--notifications-height');
    };
  }, [stack]);
}
