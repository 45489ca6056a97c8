// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../lib/api';
import { fakeApi, renderAt, startEnglish } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import ResetPasswordPage from './ResetPasswordPage';

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const csrf = () => ({ body: { csrfToken: 't' } });

describe('ResetPasswordPage', () => {
  it('sends the email with the interface language and goes to the confirmation', async () => {
    const requests = fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/password/reset': () => ({ body: {} }) });
    const user = userEvent.setup();
    const { location } = renderAt('/reset-password', <ResetPasswordPage />);

    await user.type(screen.getByLabelText(/^Email address/), ' anna.nowak@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send link' }));

    await waitFor(() => expect(location.history?.at(-1)).toBe('/reset-password/sent'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ email: 'anna.nowak@example.com', language: 'en' });
  });

  it('sends only the phone number when the user chose SMS', async () => {
    const requests = fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/password/reset': () => ({ body: {} }) });
    const user = userEvent.setup();
    renderAt('/reset-password', <ResetPasswordPage />);

    await user.click(screen.getByRole('radio', { name: 'By text message' }));
    await user.type(screen.getByLabelText(/^Phone number/), '600 100 200');
    await user.click(screen.getByRole('button', { name: 'Send link' }));

    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ phoneNumber: '600100200', language: 'en' });
  });

  it.each([
    ['email', '', 'Email address not provided'],
    ['email', 'anna@', 'Entered data are not valid email address'],
    ['sms', '12 34', 'Invalid phone number'],
  ])('refuses %s "%s" with "%s" before sending', async (channel, typed, message) => {
    const requests = fakeApi({});
    const user = userEvent.setup();
    renderAt('/reset-password', <ResetPasswordPage />);

    if (channel === 'sms') await user.click(screen.getByRole('radio', { name: 'By text message' }));
    const field = screen.getByLabelText(channel === 'sms' ? /^Phone number/ : /^Email address/);
    if (typed) await user.type(field, typed);
    await user.click(screen.getByRole('button', { name: 'Send link' }));

    expect(await screen.findByText(message)).toBeTruthy();
    expect(document.activeElement).toBe(field);
    expect(requests).toEqual([]);
  });

  it('shows a failure as a translated error notification', async () => {
    fakeApi({
      'GET /auth/csrf': csrf,
      'POST /auth/password/reset': () => ({
        status: 429,
        body: { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 300 },
        headers: { 'Retry-After': '300' },
      }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/reset-password', <ResetPasswordPage />);

    await user.type(screen.getByLabelText(/^Email address/), 'anna.nowak@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));

    await waitFor(() => expect(notifications.items.map((n) => [n.kind, n.key])).toEqual([['error', 'passwordReset.tooManyRequests']]));
    expect(location.history?.at(-1)).toBe('/reset-password');
  });

  it('links back to the patient login', () => {
    fakeApi({});
    renderAt('/reset-password', <ResetPasswordPage />);
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/portal/login');
  });
});
