// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'wouter';
import { session } from '../stores/session-store';
import { demoGuest, demoPatient, fakeApi, renderAt, startEnglish } from '../testing/session';
import { resetCsrfToken } from '../lib/api';
import { forgetDeviceOwner, rememberDeviceOwner } from '../documents/device-owner';
import { keepList, startKeeping, stopKeeping } from '../documents/offline-copies';
import { RouteGuard } from './guards';

beforeAll(startEnglish);
beforeEach(() => {
  shownOn = [];
  resetCsrfToken();
  session.status = 'unknown';
  session.user = null;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const unauthenticated = () => ({ status: 401, body: { code: 'UNAUTHENTICATED' } });

/** Every path the guarded page was shown on. */
let shownOn: string[] = [];
function Page() {
  const [path] = useLocation();
  shownOn.push(path);
  return <p>sensitive page</p>;
}
const page = <Page />;

describe('RouteGuard', () => {
  it('shows only the loading state until the profile arrives, then the page', async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    fakeApi({ 'GET /auth/session': () => new Promise((resolve) => (answer = resolve)) });
    renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
    expect(screen.queryByText('sensitive page')).toBeNull();
    answer({ body: { user: demoPatient } });
    expect(await screen.findByText('sensitive page')).toBeTruthy();
  });

  it('sends a visitor without a session from a patient page to the patient login', async () => {
    fakeApi({ 'GET /auth/session': () => ({ body: { user: null } }) });
    const { location } = renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/portal/login'));
    expect(session.status).toBe('signedOut');
  });

  it('sends a visitor without a session from the result page to the result login', async () => {
    const requests = fakeApi({ 'GET /auth/session': () => ({ body: { user: null } }), 'GET /screening': unauthenticated });
    const { location } = renderAt('/screening', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/login'));
    expect(shownOn).not.toContain('/screening');
    expect(requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it("asks for the screening info on the result page of a guest, the page's result and banners beside it", async () => {
    const requests = fakeApi({
      'GET /auth/session': () => ({ body: { user: demoGuest } }),
      'GET /screening': () => ({ body: { id: 41, createdAt: '2024-05-06T08:00:00Z' } }),
    });
    renderAt('/screening', <RouteGuard>{page}</RouteGuard>);
    expect(await screen.findByText('sensitive page')).toBeTruthy();
    // The banners go with the profile, the result (an audited read) only once she may see the page.
    expect(requests.map((request) => request.path)).toEqual(['/auth/session', '/banners', '/banners', '/screening/result', '/screening']);
  });

  it("never reads the result for a patient sent away from the guest's result page", async () => {
    const requests = fakeApi({ 'GET /auth/session': () => ({ body: { user: demoPatient } }) });
    const { location } = renderAt('/screening', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/screenings'));
    expect(requests.map((request) => request.path)).not.toContain('/screening/result');
  });

  it('sends a guest from a patient page to her screening', async () => {
    const requests = fakeApi({ 'GET /auth/session': () => ({ body: { user: demoGuest } }) });
    const { location } = renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/screening'));
    expect(shownOn).not.toContain('/screenings');
    // only her own screening (on the page she was sent to) is asked about
    expect(requests.map((request) => request.path)).not.toContain('/screenings');
  });

  it("sends a patient from another patient's survey to her screenings", async () => {
    fakeApi({
      'GET /auth/session': () => ({ body: { user: demoPatient } }),
      'GET /screening': () => ({ status: 404, body: { code: 'NOT_FOUND' } }),
    });
    const { location } = renderAt('/screening/999/survey', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/screenings'));
    expect(shownOn).not.toContain('/screening/999/survey');
    expect(session.status).toBe('signedIn');
  });

  describe('a result page whose id is not the screening the server answers (spec section 2)', () => {
    const otherScreening = () =>
      fakeApi({
        'GET /auth/session': () => ({ body: { user: demoGuest } }),
        'GET /screening': () => ({ body: { id: 41, createdAt: '2024-05-06T08:00:00Z' } }),
      });

    it('goes back to the page before, never showing this one', async () => {
      otherScreening();
      vi.spyOn(window.history, 'length', 'get').mockReturnValue(3);
      const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
      renderAt('/screening/7/survey', <RouteGuard>{page}</RouteGuard>);
      await waitFor(() => expect(back).toHaveBeenCalledTimes(1));
      expect(shownOn).not.toContain('/screening/7/survey');
      vi.restoreAllMocks();
    });

    it('goes to her start page when there is no page before', async () => {
      otherScreening();
      vi.spyOn(window.history, 'length', 'get').mockReturnValue(1);
      const back = vi.spyOn(window.history, 'back');
      const { location } = renderAt('/screening/7/survey', <RouteGuard>{page}</RouteGuard>);
      await waitFor(() => expect(location.history.at(-1)).toBe('/screening'));
      expect(back).not.toHaveBeenCalled();
      expect(shownOn).not.toContain('/screening/7/survey');
      vi.restoreAllMocks();
    });

    it('shows the page when the ids agree', async () => {
      otherScreening();
      renderAt('/screening/41/survey', <RouteGuard>{page}</RouteGuard>);
      expect(await screen.findByText('sensitive page')).toBeTruthy();
    });
  });

  it('sends a signed-in user from a login page on, and shows the form to a visitor', async () => {
    fakeApi({ 'GET /auth/session': () => ({ body: { user: demoPatient } }) });
    const { location } = renderAt('/portal/login', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/screenings'));
    cleanup();

    session.status = 'unknown';
    fakeApi({ 'GET /auth/session': () => ({ body: { user: null } }) });
    renderAt('/login', <RouteGuard>{<p>login form</p>}</RouteGuard>);
    expect(screen.getByText('login form')).toBeTruthy();
  });

  it('keeps a user who must change the password on the profile', async () => {
    fakeApi({ 'GET /auth/session': () => ({ body: { user: { ...demoPatient, requirePasswordChange: true } } }) });
    const { location } = renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
    await waitFor(() => expect(location.history.at(-1)).toBe('/portal/profile'));
  });

  describe('offline, with the screenings list kept on this device', () => {
    const offline = () => ({ 'GET /auth/session': () => Promise.reject(new TypeError('Failed to fetch')) });
    // She chose to keep copies (issue 16); the gate only finds them, her PIN opens them on the page.
    beforeEach(async () => {
      await startKeeping('u:1', '482915');
      await keepList('u:1', 'screenings', { items: [] });
    });
    afterEach(async () => {
      await stopKeeping('u:1');
      forgetDeviceOwner();
    });

    it('opens the list and the referrals for the patient last signed in here', async () => {
      rememberDeviceOwner('u:1');
      fakeApi(offline());
      renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
      expect(await screen.findByText('sensitive page')).toBeTruthy();
      cleanup();
      renderAt('/referral', <RouteGuard>{page}</RouteGuard>);
      expect(await screen.findByText('sensitive page')).toBeTruthy();
      expect(shownOn).toEqual(expect.arrayContaining(['/screenings', '/referral']));
      expect(shownOn.filter((path) => path === '/portal/login')).toEqual([]);
    });

    it('sends to the login a patient remembered here who keeps nothing (she never chose to)', async () => {
      await stopKeeping('u:1');
      rememberDeviceOwner('u:1');
      fakeApi(offline());
      const { location } = renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
      await waitFor(() => expect(location.history.at(-1)).toBe('/portal/login'));
      expect(shownOn.filter((path) => path !== '/portal/login')).toEqual([]);
    });

    it('sends anyone else to the patient login: another user signed in since, or nobody offline', async () => {
      rememberDeviceOwner('u:2');
      fakeApi(offline());
      const other = renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
      await waitFor(() => expect(other.location.history.at(-1)).toBe('/portal/login'));
      cleanup();

      // Logged out without keeping her copies: the device remembers nobody.
      forgetDeviceOwner();
      session.status = 'unknown';
      fakeApi(offline());
      const nobody = renderAt('/referral', <RouteGuard>{page}</RouteGuard>);
      await waitFor(() => expect(nobody.location.history.at(-1)).toBe('/portal/login'));
      cleanup();

      // Online, a missing session is a signed-out visitor, whatever the device keeps.
      rememberDeviceOwner('u:1');
      session.status = 'unknown';
      fakeApi({ 'GET /auth/session': () => ({ body: { user: null } }) });
      const signedOut = renderAt('/screenings', <RouteGuard>{page}</RouteGuard>);
      await waitFor(() => expect(signedOut.location.history.at(-1)).toBe('/portal/login'));
      // The login page (public) is all any of them was shown.
      expect(shownOn.filter((path) => path !== '/portal/login')).toEqual([]);
    });
  });

  it('renders public pages without asking the server', () => {
    const requests = fakeApi({});
    renderAt('/faq', <RouteGuard>{page}</RouteGuard>);
    expect(screen.getByText('sensitive page')).toBeTruthy();
    expect(requests).toHaveLength(0);
  });
});
