import { proxy, useSnapshot } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import type { ScreeningInfo, SessionAnswer, SessionUser } from '@common/types/session';
import { api, isApiError } from '../lib/api';

export type SessionStatus = 'unknown' | 'signedOut' | 'signedIn';
export type SessionState = { status: SessionStatus; user: SessionUser | null };

/** Who is signed in, as far as the browser knows; the server's session is the truth. */
export const session = proxy<SessionState>({ status: 'unknown', user: null });

export function useSession(): Readonly<SessionState> {
  return useSnapshot(session) as Readonly<SessionState>;
}

export function setSignedIn(user: SessionUser): void {
  session.user = user;
  session.status = 'signedIn';
}

export function setSignedOut(): void {
  session.user = null;
  session.status = 'signedOut';
}

/**
 * `GET /api/auth/session`: the session's user, or null when signed out. It answers a visitor 200,
 * so asking on every page load leaves no failed request in the console.
 */
export async function loadProfile(): Promise<SessionUser | null> {
  try {
    const { user } = await api.get<SessionAnswer>('/auth/session');
    if (!user) {
      setSignedOut();
      return null;
    }
    setSignedIn(user);
    return user;
  } catch (error) {
    // Offline: the browser cannot ask, so a user it already knows stays signed in.
    if (isApiError(error, 'NETWORK') && session.status === 'signedIn') return session.user;
    setSignedOut();
    return null;
  }
}

export type ScreeningCheck =
  | { outcome: 'ok'; screening: ScreeningInfo }
  | { outcome: 'signedOut' }
  /** Signed in, but this screening cannot be shown (not the caller's: 404, or a server failure). */
  | { outcome: 'refused' }
  | { outcome: 'offline' };

/** `GET /api/screening`: the guest's screening, or the patient's own screening `id`. */
export async function loadScreeningInfo(id?: number): Promise<ScreeningCheck> {
  try {
    const screening = await api.get<ScreeningInfo>('/screening', { query: { id } });
    return { outcome: 'ok', screening };
  } catch (error) {
    if (isApiError(error, 'NETWORK')) return { outcome: 'offline' };
    if (isApiError(error) && error.status === 401) {
      setSignedOut();
      return { outcome: 'signedOut' };
    }
    // The flag was set since the profile was read: the fresh profile sends her to change it.
    if (isApiError(error, 'PASSWORD_CHANGE_REQUIRED')) await loadProfile();
    return { outcome: 'refused' };
  }
}

/**
 * Ends the session on the server, then in the browser, and goes to base. A failure other than
 * an already ended session is thrown: telling the user "signed out" while the server still
 * holds the session would be unsafe on a shared computer.
 */
export async function logout(): Promise<void> {
  try {
    await api.get<{ csrfToken: string }>('/auth/logout');
  } catch (error) {
    if (!(isApiError(error) && error.status === 401)) throw error;
  }
  // Leave the guarded page first, so its guard never sees the signed-out state and goes to a login.
  navigate('/');
  setSignedOut();
}
