import { parse } from 'regexparam';
import { matchRoute } from 'wouter';
/**
 * Every path of the portal (spec section 2 and DECISIONS.md 3), in match order: the first route
 * whose pattern fits wins, so fixed paths come before patterns that could swallow them.
 *
 * access:
 * - public: anyone; no session check.
 * - result: pages of one screening (result, survey, audit of the result portal); the guard asks
 *   for the screening info and sends a failure to the result login.
 * - patient: patient-portal pages; the guard loads the profile and sends a failure to the
 *   patient login. Guest (result-portal) sessions may not use them.
 * - signedIn: any signed-in session; the server checks ownership of what is asked for.
 */
type RouteAccess = 'public' | 'result' | 'patient' | 'signedIn';

export type RouteName =
  | 'base'
  | 'login_result'
  | 'login_portal'
  | 'faq'
  | 'contact'
  | 'contact_submitted'
  | 'reset_password'
  | 'reset_password_link_sent'
  | 'change_password_with_token'
  | 'password_changed'
  | 'portal_consent'
  | 'portal_regulations'
  | 'copy_of_medical_clerking'
  | 'screening'
  | 'survey'
  | 'survey_of_screening'
  | 'images_of_screening'
  | 'screening_of_patient'
  | 'mammography_screenings'
  | 'referral'
  | 'profile_portal'
  | 'upload'
  | 'uploaded_study'
  | 'audit'
  | 'portal_audit'
  | 'order_screening_copy'
  | 'after_payment'
  | 'order_status'
  | 'buy_consultation'
  | 'success';

export type RouteDefinition = { name: RouteName; path: string; access: RouteAccess };

export const ROUTES: readonly RouteDefinition[] = [
  { name: 'base', path: '/', access: 'public' },
  { name: 'login_result', path: '/login', access: 'public' },
  { name: 'login_portal', path: '/portal/login', access: 'public' },
  { name: 'faq', path: '/faq', access: 'public' },
  { name: 'contact', path: '/contact', access: 'public' },
  { name: 'contact_submitted', path: '/contact/success', access: 'public' },
  { name: 'reset_password', path: '/reset-password', access: 'public' },
  { name: 'reset_password_link_sent', path: '/reset-password/sent', access: 'public' },
  { name: 'change_password_with_token', path: '/change-password/:token', access: 'public' },
  { name: 'password_changed', path: '/password-changed', access: 'public' },
  { name: 'portal_consent', path: '/portal/consent', access: 'public' },
  { name: 'portal_regulations', path: '/portal/regulations', access: 'public' },
  { name: 'copy_of_medical_clerking', path: '/copy-of-medical-clerking', access: 'public' },
  { name: 'screening', path: '/screening', access: 'result' },
  { name: 'survey', path: '/screening/survey', access: 'result' },
  { name: 'survey_of_screening', path: '/screening/:id/survey', access: 'result' },
  // The images of one screening in the viewer: the guest's own, or any of a patient's.
  { name: 'images_of_screening', path: '/screening/:id/images', access: 'result' },
  // A patient's result page of one of her screenings (the guest's is `screening`); the server
  // answers 404 for a screening that is not hers. After the survey paths, which it would swallow.
  { name: 'screening_of_patient', path: '/screening/:id', access: 'patient' },
  { name: 'audit', path: '/audit', access: 'result' },
  { name: 'mammography_screenings', path: '/screenings', access: 'patient' },
  { name: 'referral', path: '/referral', access: 'patient' },
  { name: 'profile_portal', path: '/portal/profile', access: 'patient' },
  { name: 'upload', path: '/portal/upload-screenings', access: 'patient' },
  { name: 'uploaded_study', path: '/portal/uploaded-studies/:studyUid', access: 'patient' },
  { name: 'portal_audit', path: '/portal/audit', access: 'patient' },
  { name: 'order_screening_copy', path: '/order-screening-copy/:screeningId', access: 'patient' },
  { name: 'after_payment', path: '/payment', access: 'patient' },
  { name: 'order_status', path: '/order/:id/status', access: 'signedIn' },
  { name: 'buy_consultation', path: '/buy-consultation/screening/:id', access: 'patient' },
  // Generic success page for `order` and `payment` (contact has its own public route above).
  { name: 'success', path: '/:type/success', access: 'patient' },
];

const routesByName = new Map(ROUTES.map((route) => [route.name, route]));

function routeByName(name: RouteName): RouteDefinition {
  const route = routesByName.get(name);
  if (!route) throw new Error(`Unknown route ${name}`);
  return route;
}

/**
 * The route a location shows, found by wouter's own matcher with the parser its `<Switch>` uses
 * (regexparam), so the guard and the rendered page can never disagree: a trailing slash is
 * allowed, letters match in any case, `:name` takes one non-empty segment as it stands in the
 * location. `location` is wouter's (useLocation: the path without query or hash, already
 * URI-decoded); a query or hash is cut off all the same.
 */
export function routeForPath(location: string): { route: RouteDefinition; params: Record<string, string> } | null {
  const path = location.split(/[?#]/)[0] ?? '';
  for (const route of ROUTES) {
    const [matched, params] = matchRoute(parse, route.path, path);
    if (matched) return { route, params: namedParams(params) };
  }
  return null;
}

/** matchRoute also answers positional captures ("0", "1" ...); the routes use names only. */
function namedParams(params: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => !/^\d+$/.test(entry[0]) && entry[1] !== undefined),
  );
}

/**
 * True when the path needs no session check: public routes, and unknown paths (they are sent to
 * base, which is public).
 */
export function isPublicPath(path: string): boolean {
  const found = routeForPath(path);
  return !found || found.route.access === 'public';
}

/** The path of a named route with its parameters filled in, e.g. pathFor('order_status', { id: 7 }). */
export function pathFor(name: RouteName, params: Record<string, string | number> = {}): string {
  return routeByName(name).path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Route ${name} needs the parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}
