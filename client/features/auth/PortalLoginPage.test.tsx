// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../lib/api';
import { sha256Hex } from '../../lib/sha256';
import PortalLoginPage from './PortalLoginPage';
import { setSignedOut } from '../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish } from '../../testing/session';

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedOut();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function fillIn(user: ReturnType<typeof userEvent.setup>, login: string, password: string) {
  if (login) await user.type(screen.getByLabelText(/^Login/), login);
  if (password) await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('checkbox', { name: /portal terms/ }));
  await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
}

const csrf = () => ({ body: { csrfToken: 't' } });

describe('PortalLoginPage', () => {
  it('asks for the login and the password', async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderAt('/portal/login', <PortalLoginPage />);
    await user.click(screen.getByRole('checkbox', { name: /portal terms/ }));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Login not provided')).toBeTruthy();
    expect(screen.getByText('Password not provided')).toBeTruthy();
    expect(screen.getAllByText('No consent indicated')).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Login/));
  });

  it('offers the forgotten-password page and fills the login as a username', () => {
    fakeApi({});
    renderAt('/portal/login', <PortalLoginPage />);
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/reset-password');
    expect(screen.getByLabelText(/^Login/).getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText(/^Password/).getAttribute('autocomplete')).toBe('current-password');
  });

  it('sends the SHA-256 of the password, never the password', async () => {
    const requests = fakeApi({
      'GET /auth/csrf': csrf,
      'POST /auth/portal/login': () => ({ body: { user: demoPatient, csrfToken: 'renewed' } }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/portal/login', <PortalLoginPage />);
    await fillIn(user, 'anna.nowak@example.com', 'Mammo!2024demo');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(location.history.at(-1)).toBe('/screenings'));
    const login = requests.find((request) => request.path === '/auth/portal/login');
    expect(login?.body).toEqual({
      login: 'anna.nowak@example.com',
      password: await sha256Hex('Mammo!2024demo'),
      portalTerms: true,
      policyTerms: true,
    });
    expect(JSON.stringify(requests)).not.toContain('Mammo!2024demo');
  });

  it('holds a user who must change the password on the profile', async () => {
    fakeApi({
      'GET /auth/csrf': csrf,
      'POST /auth/portal/login': () => ({
        body: { user: { ...demoPatient, requirePasswordChange: true }, csrfToken: 'renewed' },
      }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/portal/login', <PortalLoginPage />);
    await fillIn(user, 'ewa.wisniewska@example.com', 'Zmien!Haslo1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/portal/profile'));
  });

  it('shows the generic authorization error for a wrong password', async () => {
    fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/portal/login': () => ({ status: 401, body: { code: 'LOGIN_FAILED' } }) });
    const user = userEvent.setup();
    renderAt('/portal/login', <PortalLoginPage />);
    await fillIn(user, 'anna.nowak@example.com', 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Authorization error. Check the correctness of the data entered')).toBeTruthy();
  });

  it("shows the server's message of a 403", async () => {
    fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/portal/login': () => ({ status: 403, body: { code: 'ACCOUNT_DISABLED' } }) });
    const user = userEvent.setup();
    renderAt('/portal/login', <PortalLoginPage />);
    await fillIn(user, 'anna.nowak@example.com', 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(/Your account has been disabled/)).toBeTruthy();
  });

  it('tells to reload the page when the CSRF token stays invalid', async () => {
    fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/portal/login': () => ({ status: 403, body: { code: 'INVALID_CSRF_TOKEN' } }) });
    const user = userEvent.setup();
    renderAt('/portal/login', <PortalLoginPage />);
    await fillIn(user, 'anna.nowak@example.com', 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(/Invalid CSRF token\. Reload the page/)).toBeTruthy();
  });
});
