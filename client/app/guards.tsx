import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { loadProfile, loadScreeningInfo, session, useSession, type SessionStatus } from '../features/auth/session-store';
import { ownerKeyOf, rememberDeviceOwner } from '../features/offline/device-owner';
import { useT } from '../lib/intl';
import { decideNavigation, isLoginPath, OFFLINE_RESULT_PAGES } from './decide-navigation';
import { routeForPath } from './routes';

type Verification = { refused: boolean; offlineCopy?: boolean };
const NOTHING_REFUSED: Verification = { refused: false };

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

  if (route.access === 'public') {
    if (isLoginPath(path) && session.status === 'unknown') await loadProfile();
    return NOTHING_REFUSED;
  }
  // The profile tells a guest from a patient; a known session skips it on result pages.
  if (route.access !== 'result' || session.status !== 'signedIn') await loadProfile();
  // Whoever signed in last owns what the device opens offline, never an earlier user.
  const owner = session.user && ownerKeyOf(session.user);
  if (owner) rememberDeviceOwner(owner);
  // Offline the profile cannot be read; the installed app still opens a result kept on the device.
  // The device database is loaded only then, so it never weighs on the first page.
  if (session.status === 'signedOut' && OFFLINE_RESULT_PAGES.has(route.name)) {
    const { hasOfflineCopy } = await import('../features/offline/offline-gate');
    if (await hasOfflineCopy(screeningIdParam(params))) return { refused: false, offlineCopy: true };
  }
  if (route.access !== 'result') return NOTHING_REFUSED;

  // Pages this user is sent away from anyway are not asked about: every refused request
  // would write an *_UNAUTHORIZED audit entry for her.
  if (decideNavigation(path, { status: session.status, user: session.user }).kind !== 'render') {
    return NOTHING_REFUSED;
  }
  const id = screeningIdParam(params);
  if (id === null) return { refused: true };
  const check = await loadScreeningInfo(id);
  return { refused: check.outcome === 'refused' };
}

type Check = { path: string; blocking: boolean; done: boolean; refused: boolean; offlineCopy?: boolean };

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
    void verifySession(location).then(({ refused, offlineCopy }) => {
      if (current) {
        setCheck((started) => (started.path === location ? { ...started, done: true, refused, offlineCopy } : started));
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
  });
  const redirectTo = decision.kind === 'redirect' ? decision.to : null;

  useEffect(() => {
    if (redirectTo !== null && !waiting) navigate(redirectTo, { replace: true });
  }, [redirectTo, waiting, navigate]);

  if (decision.kind === 'render') {
    const isPublic = routeForPath(location)?.route.access === 'public';
    return isPublic || !waiting ? children : <SessionCheckLoading />;
  }
  return <SessionCheckLoading />;
}
