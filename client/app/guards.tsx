import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { goBack } from '../routes/go-back';
import { loadProfile, loadScreeningInfo, session, useSession, type SessionStatus } from '../stores/session-store';
import { ownerKeyOf, rememberDeviceOwner } from '../documents/device-owner';
import { prefetchBanners, prefetchResult, topBannersAnswered } from '../early-start/result-requests';
import { useT } from '../lib/intl';
import { decideNavigation, isLoginPath, OFFLINE_IMAGE_PAGES, OFFLINE_LIST_PAGES, OFFLINE_RESULT_PAGES } from '../routes/decide-navigation';
import { preloadPage } from './pages';
import { routeForPath } from '../routes/paths';

type Verification = { refused: boolean; offlineCopy?: boolean; otherScreening?: boolean };
const NOTHING_REFUSED: Verification = { refused: false };
/** How long a result page that waits for the session check also waits for its top logos' answer. */
const TOP_BANNERS_WAIT_MS = 1_000;

function screeningIdParam(params: Record<string, string>): number | undefined | null {
  if (params.id === undefined) return undefined;
  return /^\d+$/.test(params.id) ? Number(params.id) : null;
}

/**
 * The session check of spec section 2, run on every path change. Result-portal pages ask for
 * the screening info; every other guarded page loads the profile. A login page asks once, quietly,
 * so a user who is already signed in is sent on.
 */
async function verifySession(path: string): Promise<Verification> {
  const found = routeForPath(path);
  if (!found) return NOTHING_REFUSED;
  const { route, params } = found;
  // A login page asks once, quietly. Elsewhere the profile tells a guest from a patient; a known
  // session skips it on result pages.
  const askProfile =
    route.access === 'public'
      ? isLoginPath(path) && session.status === 'unknown'
      : route.access !== 'result' || session.status !== 'signedIn';
  // A session the browser does not know yet keeps the result page waiting for this check
  // (startCheck): its requests start here, beside the check's, instead of after it. A known
  // session renders the page at once, and the page asks itself.
  const resultPageWaits = OFFLINE_RESULT_PAGES.has(route.name) && session.status === 'unknown';
  // The server is asked before the page's code is fetched: over HTTP/1.1 a browser opens six
  // connections to a host, and the page's code chunks would otherwise hold them all first.
  const profileLoad = askProfile ? loadProfile() : undefined;
  // The sponsor logos are nobody's data: asked for at once, beside the profile.
  if (resultPageWaits && navigator.onLine !== false) prefetchBanners();
  // The page's code loads while the server is asked, not after.
  void preloadPage(route.name);

  // The page shows its top logos in its first render (SponsorBanners) rather than push it down
  // when they come; their answer is seldom later than the profile's, and never waited for long.
  await Promise.all([profileLoad, resultPageWaits ? topBannersAnswered(TOP_BANNERS_WAIT_MS) : undefined]);
  if (route.access === 'public') return NOTHING_REFUSED;
  // Whoever signed in last owns what the device opens offline, never an earlier user.
  const owner = session.user && ownerKeyOf(session.user);
  if (owner) rememberDeviceOwner(owner);
  // Offline the profile cannot be read; the installed app still opens a result kept on the device.
  // The device database is loaded only then, so it never weighs on the first page.
  if (session.status === 'signedOut' && OFFLINE_RESULT_PAGES.has(route.name)) {
    const { hasOfflineCopy } = await import('../documents/offline-gate');
    if (await hasOfflineCopy(screeningIdParam(params))) return { refused: false, offlineCopy: true };
  }
  if (session.status === 'signedOut' && OFFLINE_IMAGE_PAGES.has(route.name)) {
    const { hasKeptImagesOffline } = await import('../features/images/offline-gate');
    if (await hasKeptImagesOffline(screeningIdParam(params))) return { refused: false, offlineCopy: true };
  }
  if (session.status === 'signedOut' && OFFLINE_LIST_PAGES.has(route.name)) {
    const { hasOfflineLists } = await import('../documents/offline-gate');
    if (await hasOfflineLists()) return { refused: false, offlineCopy: true };
  }
  if (route.access !== 'result') return NOTHING_REFUSED;

  // Pages this user is sent away from anyway are not asked about: every refused request
  // would write an *_UNAUTHORIZED audit entry for her.
  if (decideNavigation(path, { status: session.status, user: session.user }).kind !== 'render') {
    return NOTHING_REFUSED;
  }
  const id = screeningIdParam(params);
  if (id === null) return { refused: true };
  // Only now that she may open the page: each read of a result is an audited RESULT entry.
  if (resultPageWaits) prefetchResult(id);
  const check = await loadScreeningInfo(id);
  // Spec section 2: the info names the screening the session may see; another id than the path's
  // means the path is not hers to open.
  if (check.outcome === 'ok' && id !== undefined && check.screening.id !== id) return { refused: false, otherScreening: true };
  return { refused: check.outcome === 'refused' };
}

let firstCheck: { path: string; verification: Promise<Verification> } | null = null;

/**
 * Starts the session check of the page being opened while the app still loads (main.tsx), not
 * after its first render: on a phone's link that is half a second sooner.
 */
export function startSessionCheck(path: string): void {
  firstCheck = { path, verification: verifySession(path) };
}

/** The check started early for `path`, taken once; otherwise a check starting now. */
function sessionCheckOf(path: string): Promise<Verification> {
  const early = firstCheck;
  firstCheck = null;
  return early?.path === path ? early.verification : verifySession(path);
}

type Check = { path: string; blocking: boolean; done: boolean } & Verification;

/** Only a session the browser does not know yet hides the page while the check runs. */
function startCheck(path: string, status: SessionStatus): Check {
  return { path, blocking: status !== 'signedIn', done: false, refused: false };
}

function SessionCheckLoading() {
  const t = useT();
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{t('auth.checkingSession')}</span>
    </div>
  );
}

/**
 * Gates every page (spec section 2 "Redirects and gating"). A session the browser already knows
 * renders at once while the check re-asks the server; an unknown one shows only the loading
 * state, so no guarded page appears before the server said who is signed in.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  const { status, user } = useSession();
  const [check, setCheck] = useState<Check>(() => startCheck(location, status));
  // A new path starts its check in this very render, so it is never judged by the old one.
  let active = check;
  if (check.path !== location) {
    active = startCheck(location, status);
    setCheck(active);
  }

  useEffect(() => {
    let current = true;
    void sessionCheckOf(location).then((verification) => {
      if (current) {
        setCheck((started) => (started.path === location ? { ...started, ...verification, done: true } : started));
      }
    });
    return () => {
      current = false;
    };
  }, [location]);

  const waiting = active.blocking && !active.done;
  const decision = decideNavigation(location, {
    status,
    user,
    screeningRefused: active.refused,
    offlineCopy: active.offlineCopy,
    otherScreening: active.otherScreening,
  });
  const redirectTo = decision.kind === 'redirect' ? decision.to : null;
  const backFallback = decision.kind === 'back' ? decision.fallback : null;

  useEffect(() => {
    if (redirectTo !== null && !waiting) navigate(redirectTo, { replace: true });
  }, [redirectTo, waiting, navigate]);
  useEffect(() => {
    if (backFallback !== null) goBack(navigate, backFallback);
  }, [backFallback, navigate]);

  if (decision.kind === 'render') {
    const isPublic = routeForPath(location)?.route.access === 'public';
    return isPublic || !waiting ? children : <SessionCheckLoading />;
  }
  return <SessionCheckLoading />;
}
