import type { SessionUser } from '@common/types/session';
import type { SessionState } from '../stores/session-store';
import { pathFor, routeForPath, type RouteName } from './paths';

/**
 * Route gating of spec section 2 "Redirects and gating" as a pure function, so every rule is
 * tested without a browser. The RouteGuard runs the session checks and applies the decision.
 */
export type GateState = SessionState & {
  /** The screening info of this result-portal page was refused (not the caller's screening). */
  screeningRefused?: boolean;
  /** The session could not be asked (no network) and this device keeps a copy of this result or list. */
  offlineCopy?: boolean;
  /** The screening info answered another screening than the id in the path (spec section 2). */
  otherScreening?: boolean;
};

export type NavigationDecision =
  | { kind: 'render' }
  | { kind: 'redirect'; to: string }
  /** The session is not known yet: show only the loading state until the check ends. */
  | { kind: 'wait' }
  /** Spec section 2: go back to the page before; `fallback` when this page was the first one. */
  | { kind: 'back'; fallback: string };

const LOGIN_PAGES: ReadonlySet<RouteName> = new Set(['login_result', 'login_portal']);
/** Result-portal pages that name their screening, so a patient opens them for any of hers. */
const RESULT_PAGES_OF_ANY_SCREENING: ReadonlySet<RouteName> = new Set(['survey_of_screening', 'images_of_screening']);
/** The result pages, which the installed app opens offline from a copy kept on the device. */
export const OFFLINE_RESULT_PAGES: ReadonlySet<RouteName> = new Set(['screening', 'screening_of_patient']);
/** The patient's lists, which the installed app opens offline as last seen on the device. */
export const OFFLINE_LIST_PAGES: ReadonlySet<RouteName> = new Set(['mammography_screenings', 'referral']);
/** A screening's images, which the installed app opens offline when they are kept on the device. */
export const OFFLINE_IMAGE_PAGES: ReadonlySet<RouteName> = new Set(['images_of_screening']);

export function isGuest(user: SessionUser): boolean {
  return user.guest || user.id === null;
}

/** Where a signed-in user belongs: the forced profile, the guest's screening, or the list. */
export function userHomePath(user: SessionUser): string {
  if (user.requirePasswordChange) return pathFor('profile_portal');
  return isGuest(user) ? pathFor('screening') : pathFor('mammography_screenings');
}

export function isLoginPath(path: string): boolean {
  const found = routeForPath(path);
  return found !== null && LOGIN_PAGES.has(found.route.name);
}

const render: NavigationDecision = { kind: 'render' };
const redirect = (to: string): NavigationDecision => ({ kind: 'redirect', to });

export function decideNavigation(path: string, state: GateState): NavigationDecision {
  const found = routeForPath(path);
  if (!found) return redirect(pathFor('base'));
  const { route } = found;
  const user = state.status === 'signedIn' ? state.user : null;

  if (route.access === 'public') {
    return user && LOGIN_PAGES.has(route.name) ? redirect(userHomePath(user)) : render;
  }
  if (state.status === 'unknown') return { kind: 'wait' };
  const offlinePage = OFFLINE_RESULT_PAGES.has(route.name) || OFFLINE_LIST_PAGES.has(route.name) || OFFLINE_IMAGE_PAGES.has(route.name);
  if (!user && state.offlineCopy && offlinePage) return render;
  if (!user) return redirect(pathFor(route.access === 'result' ? 'login_result' : 'login_portal'));

  if (user.requirePasswordChange && route.name !== 'profile_portal') return redirect(pathFor('profile_portal'));

  const guest = isGuest(user);
  if (route.access === 'patient' && guest) {
    return redirect(route.name === 'portal_audit' ? pathFor('audit') : pathFor('screening'));
  }
  // A patient reaches a screening's survey and images by its id; the id-less result pages are the guest's.
  if (route.access === 'result' && !guest && !RESULT_PAGES_OF_ANY_SCREENING.has(route.name)) {
    return redirect(route.name === 'audit' ? pathFor('portal_audit') : pathFor('mammography_screenings'));
  }
  if (state.otherScreening) return { kind: 'back', fallback: userHomePath(user) };
  if (state.screeningRefused) {
    const home = userHomePath(user);
    // The guest's own screening refused: no other page to send her to; the page shows its empty state.
    return routeForPath(home)?.route.name === route.name ? render : redirect(home);
  }
  return render;
}
