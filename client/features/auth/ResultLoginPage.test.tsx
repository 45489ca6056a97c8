// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../lib/api';
import ResultLoginPage from './ResultLoginPage';
import { session, setSignedOut } from '../../stores/session-store';
import { demoGuest, fakeApi, renderAt, startEnglish } from '../../testing/session';

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedOut();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function fillIn(user: ReturnType<typeof userEvent.setup>, code: string, birthDigits: string) {
  await user.type(screen.getByLabelText(/^Access code/), code);
  await user.type(screen.getByLabelText(/^Date of birth/), birthDigits);
  await user.click(screen.getByRole('checkbox', { name: /portal terms/ }));
  await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
}

describe('ResultLoginPage', () => {
  it('shows every validation message under its field on an empty submit and focuses the first', async () => {
    const requests = fakeApi({});
    const user = userEvent.setup();
    renderAt('/login', <ResultLoginPage />);
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Access code not specified')).toBeTruthy();
    expect(screen.getByText('The date given is incorrect')).toBeTruthy();
    expect(screen.getAllByText('No consent indicated')).toHaveLength(2);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Access code/));
    expect(screen.getByLabelText(/^Access code/).getAttribute('aria-invalid')).toBe('true');
    expect(requests).toHaveLength(0);
  });

  it('inserts the dashes of the birth date while digits are typed', async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderAt('/login', <ResultLoginPage />);
    const birthAt = screen.getByLabelText(/^Date of birth/) as HTMLInputElement;
    expect(birthAt.placeholder).toBe('YYYY-MM-DD');
    expect(birthAt.inputMode).toBe('numeric');
    await user.type(birthAt, '19680412');
    expect(birthAt.value).toBe('1968-04-12');
  });

  it('keeps the access code to eight characters without autocomplete', () => {
    fakeApi({});
    renderAt('/login', <ResultLoginPage />);
    const code = screen.getByLabelText(/^Access code/) as HTMLInputElement;
    expect(code.maxLength).toBe(8);
    expect(code.getAttribute('autocomplete')).toBe('off');
    expect(code.getAttribute('autocapitalize')).toBe('none');
  });

  it('links the consents to the regulations and the consent page in a new tab', () => {
    fakeApi({});
    renderAt('/login', <ResultLoginPage />);
    const regulations = screen.getByRole('link', { name: /portal terms/ });
    expect(regulations.getAttribute('href')).toBe('/portal/regulations');
    expect(regulations.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: /privacy policy/ }).getAttribute('href')).toBe('/portal/consent');
    expect(screen.getByRole('link', { name: /questions and answers/ }).getAttribute('href')).toBe('/faq');
    expect(screen.getByRole('heading', { name: 'About mammography screening' })).toBeTruthy();
  });

  it('announces "Incorrect access code" for a wrong code and moves focus to it', async () => {
    fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /auth/login': () => ({ status: 401, body: { code: 'INVALID_ACCESS_CODE' } }),
    });
    const user = userEvent.setup();
    renderAt('/login', <ResultLoginPage />);
    await fillIn(user, 'Wrong123', '19680412');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('Incorrect access code'));
    expect(document.activeElement).toBe(alert);
    expect(session.status).toBe('signedOut');
  });

  it('signs in, sends the consents and goes to the screening', async () => {
    const requests = fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /auth/login': () => ({ body: { user: demoGuest, csrfToken: 'renewed' } }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/login', <ResultLoginPage />);
    await fillIn(user, 'Xk7mP2qa', '19680412');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(location.history.at(-1)).toBe('/screening'));
    expect(session).toMatchObject({ status: 'signedIn', user: { guest: true, screeningId: 41 } });
    const login = requests.find((request) => request.path === '/auth/login');
    expect(login?.body).toEqual({ accessCode: 'Xk7mP2qa', birthAt: '1968-04-12', portalTerms: true, policyTerms: true });
    expect(login?.headers['X-CSRF-Token']).toBe('t');
  });

  it('sends one request however often the button is pressed', async () => {
    let release: () => void = () => {};
    const requests = fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /auth/login': () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 401, body: { code: 'INVALID_ACCESS_CODE' } });
        }),
    });
    const user = userEvent.setup();
    renderAt('/login', <ResultLoginPage />);
    await fillIn(user, 'Xk7mP2qa', '19680412');
    const button = screen.getByRole('button', { name: 'Log in' });
    await user.click(button);
    await user.click(button);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(requests.filter((r) => r.path === '/auth/login')).toHaveLength(1));
    release();
    await screen.findByText('Incorrect access code');
    expect(requests.filter((r) => r.path === '/auth/login')).toHaveLength(1);
  });

  it('shows the server issues under their fields', async () => {
    fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /auth/login': () => ({
        status: 400,
        body: { code: 'VALIDATION', issues: [{ path: 'birthAt', message: 'validation.birthAt.invalid' }] },
      }),
    });
    const user = userEvent.setup();
    renderAt('/login', <ResultLoginPage />);
    await fillIn(user, 'Xk7mP2qa', '19680412');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('The date given is incorrect')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Date of birth/));
  });

  it('names the wait after too many attempts', async () => {
    fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /auth/login': () => ({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' }, headers: { 'Retry-After': '30' } }),
    });
    const user = userEvent.setup();
    renderAt('/login', <ResultLoginPage />);
    await fillIn(user, 'Xk7mP2qa', '19680412');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Too many failed login attempts. Try again in 30 seconds.')).toBeTruthy();
  });

  it('warns up front when the browser blocks cookies', () => {
    fakeApi({});
    vi.spyOn(navigator, 'cookieEnabled', 'get').mockReturnValue(false);
    renderAt('/login', <ResultLoginPage />);
    expect(screen.getByText(/Your browser blocks cookies/)).toBeTruthy();
    vi.restoreAllMocks();
  });
});
