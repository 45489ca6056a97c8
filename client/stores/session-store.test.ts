// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../lib/api';
import { loadProfile, loadScreeningInfo, logout, session, setSignedIn } from './session-store';
import { demoGuest, demoPatient, fakeApi } from '../testing/session';

beforeEach(() => {
  resetCsrfToken();
  session.status = 'unknown';
  session.user = null;
});
afterEach(() => vi.unstubAllGlobals());

const unauthenticated = () => ({ status: 401, body: { code: 'UNAUTHENTICATED' } });

describe('session store', () => {
  it('is signed in after a profile answer and signed out after a refusal', async () => {
    fakeApi({ 'GET /auth/session': () => ({ body: { user: demoPatient } }) });
    await loadProfile();
    expect(session).toEqual({ status: 'signedIn', user: demoPatient });

    fakeApi({ 'GET /auth/session': () => ({ body: { user: null } }) });
    await loadProfile();
    expect(session).toEqual({ status: 'signedOut', user: null });
  });

  it('keeps a known user signed in while the device is offline', async () => {
    setSignedIn(demoPatient);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await loadProfile();
    expect(session.status).toBe('signedIn');
  });

  it('tells a refused screening from an ended session', async () => {
    setSignedIn(demoPatient);
    fakeApi({ 'GET /screening': () => ({ status: 404, body: { code: 'NOT_FOUND' } }) });
    expect(await loadScreeningInfo(999)).toEqual({ outcome: 'refused' });
    expect(session.status).toBe('signedIn');

    fakeApi({ 'GET /screening': unauthenticated });
    expect(await loadScreeningInfo()).toEqual({ outcome: 'signedOut' });
    expect(session.status).toBe('signedOut');
  });

  it('answers the screening of a guest', async () => {
    const requests = fakeApi({ 'GET /screening': () => ({ body: { id: 41, createdAt: '2024-05-06T08:00:00Z' } }) });
    expect(await loadScreeningInfo()).toEqual({ outcome: 'ok', screening: { id: 41, createdAt: '2024-05-06T08:00:00Z' } });
    expect(requests[0]?.path).toBe('/screening');
  });

  it('rereads the profile when the server says the password must be changed first', async () => {
    setSignedIn(demoPatient);
    fakeApi({
      'GET /screening': () => ({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } }),
      'GET /auth/session': () => ({ body: { user: { ...demoPatient, requirePasswordChange: true } } }),
    });
    expect(await loadScreeningInfo(3)).toEqual({ outcome: 'refused' });
    expect(session.user?.requirePasswordChange).toBe(true);
  });

  it('logs out on the server with the CSRF token, then goes to base', async () => {
    setSignedIn(demoGuest);
    window.history.pushState(null, '', '/screening');
    const requests = fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 'session-token' } }),
      'GET /auth/logout': () => ({ body: { csrfToken: 'anonymous-token' } }),
    });
    await logout();
    expect(requests.find((request) => request.path === '/auth/logout')?.headers['X-CSRF-Token']).toBe('session-token');
    expect(session).toEqual({ status: 'signedOut', user: null });
    expect(window.location.pathname).toBe('/');
  });

  it('stays signed in when the server could not end the session', async () => {
    setSignedIn(demoGuest);
    fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'GET /auth/logout': () => ({ status: 500, body: { code: 'INTERNAL' } }),
    });
    await expect(logout()).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(session.status).toBe('signedIn');
  });
});
