// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@common/types/session';
import { resetCsrfToken } from '../../lib/api';
import { sha256Hex } from '../../lib/sha256';
import { setSignedIn } from '../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import ProfilePage from './ProfilePage';

const anna: SessionUser = {
  ...demoPatient,
  personalData: {
    firstName: 'ANNA',
    lastName: 'nowak',
    birthAt: '1961-03-05',
    pesel: '61030512345',
    email: 'anna.prywatna@example.com',
    phoneNumber: null,
  },
};
const ewa: SessionUser = { ...anna, id: 2, email: 'ewa@example.com', requirePasswordChange: true };

const OLD = 'Mammo!2024demo';
const NEW = 'Kalafior na parze 7';

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type User = ReturnType<typeof userEvent.setup>;

async function fillIn(user: User, values: { old?: string; new?: string; confirm?: string }) {
  if (values.old) await user.type(screen.getByLabelText(/^Old password/), values.old);
  if (values.new) await user.type(screen.getByLabelText(/^New password/), values.new);
  if (values.confirm) await user.type(screen.getByLabelText(/^Confirm new password/), values.confirm);
}

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Change password' }));
const csrf = () => ({ body: { csrfToken: 't' } });
const noticesOn = { 'GET /user/notices': () => ({ body: { resultNotices: true } }) };
/** What the password form sent: the notices card loads its own state beside it. */
const sentByForm = (requests: { method: string; path: string }[]) => requests.filter((r) => r.path !== '/user/notices');
const RESULT_NOTICES = 'Tell me by email or text message when my result is ready';

describe('ProfilePage', () => {
  it('shows the patient her data, read-only, with the birth date in the chosen language', () => {
    setSignedIn(anna);
    fakeApi(noticesOn);
    renderAt('/portal/profile', <ProfilePage />);
    const data = screen.getByRole('region', { name: 'Personal data' });
    expect(within(data).getByText('Anna')).toBeTruthy();
    expect(within(data).getByText('Nowak')).toBeTruthy();
    expect(within(data).getByText('March 5, 1961')).toBeTruthy();
    expect(within(data).getByText('61030512345')).toBeTruthy();
    expect(within(data).getByText('anna.prywatna@example.com')).toBeTruthy();
    expect(within(data).getByText('Not provided')).toBeTruthy();
    expect(within(data).queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a patient held for a password change why, once', () => {
    setSignedIn(ewa);
    fakeApi({});
    renderAt('/portal/profile', <ProfilePage />);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'You must change your password before you can use the portal.',
    ]);
  });

  it('offers the fields to a password manager', () => {
    setSignedIn(anna);
    fakeApi({});
    renderAt('/portal/profile', <ProfilePage />);
    expect(screen.getByLabelText(/^Old password/).getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByLabelText(/^New password/).getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByLabelText(/^Confirm new password/).getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByLabelText(/^New password/).getAttribute('type')).toBe('password');
  });

  it('names every missing field and focuses the first', async () => {
    setSignedIn(anna);
    const requests = fakeApi({});
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    await submit(user);
    expect(await screen.findByText('Old password not provided')).toBeTruthy();
    expect(screen.getByText('Password not provided')).toBeTruthy();
    expect(screen.getByText('Password confirmation not provided')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Old password/));
    expect(sentByForm(requests)).toEqual([]);
  });

  it('refuses a weak or mismatched new password before anything is hashed or sent', async () => {
    setSignedIn(anna);
    const requests = fakeApi({});
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    await fillIn(user, { old: OLD, new: 'haslo123', confirm: 'haslo1234' });
    await submit(user);
    expect(await screen.findByText('The new password must be at least 12 characters long')).toBeTruthy();
    expect(screen.getByText('The two passwords that you entered do not match!')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^New password/));

    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'Polska123456');
    await submit(user);
    expect(await screen.findByText('This password is too common and easy to guess. Choose a different one.')).toBeTruthy();
    expect(sentByForm(requests)).toEqual([]);
  });

  it('sends the three values hashed, says so on success and reloads the profile', async () => {
    setSignedIn(anna);
    const requests = fakeApi({
      'GET /auth/csrf': csrf,
      'PATCH /auth/password': () => ({ body: { user: anna, csrfToken: 'renewed' } }),
      'GET /auth/session': () => ({ body: { user: anna } }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/portal/profile', <ProfilePage />);
    await fillIn(user, { old: OLD, new: NEW, confirm: NEW });
    await submit(user);

    await waitFor(() => expect(requests.some((r) => r.path === '/auth/session')).toBe(true));
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toEqual({ oldPassword: await sha256Hex(OLD), newPassword: await sha256Hex(NEW), confirm: await sha256Hex(NEW) });
    expect(JSON.stringify(requests)).not.toContain(NEW);
    expect(notifications.items.map((item) => [item.kind, item.key])).toEqual([['success', 'profile.password.changed']]);
    expect((screen.getByLabelText(/^New password/) as HTMLInputElement).value).toBe('');
    expect(location.history?.at(-1)).toBe('/portal/profile');
  });

  it('sends a released patient on to her screenings', async () => {
    setSignedIn(ewa);
    fakeApi({
      ...noticesOn,
      'GET /auth/csrf': csrf,
      'PATCH /auth/password': () => ({ body: { user: { ...ewa, requirePasswordChange: false }, csrfToken: 'renewed' } }),
      'GET /auth/session': () => ({ body: { user: { ...ewa, requirePasswordChange: false } } }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/portal/profile', <ProfilePage />);
    await fillIn(user, { old: 'Zmien!Haslo1', new: NEW, confirm: NEW });
    await submit(user);
    await waitFor(() => expect(location.history?.at(-1)).toBe('/screenings'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a wrong old password under that field', async () => {
    setSignedIn(anna);
    fakeApi({
      'GET /auth/csrf': csrf,
      'PATCH /auth/password': () => ({ status: 403, body: { code: 'INVALID_PASSWORD' } }),
    });
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    await fillIn(user, { old: 'Nie to haslo!', new: NEW, confirm: NEW });
    await submit(user);
    expect(await screen.findByText('Incorrect Password entered')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Old password/));
    expect(notifications.items).toEqual([]);
  });

  it("shows the server's refusal of a breached password under the new-password field", async () => {
    setSignedIn(anna);
    fakeApi({
      'GET /auth/csrf': csrf,
      'PATCH /auth/password': () => ({
        status: 400,
        body: { code: 'VALIDATION', issues: [{ path: 'newPassword', message: 'validation.password.common' }] },
      }),
    });
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    await fillIn(user, { old: OLD, new: NEW, confirm: NEW });
    await submit(user);
    expect(await screen.findByText('This password is too common and easy to guess. Choose a different one.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^New password/));
    expect(notifications.items).toEqual([]);
  });

  it('reports any other failure as an error notification', async () => {
    setSignedIn(anna);
    fakeApi({
      'GET /auth/csrf': csrf,
      'PATCH /auth/password': () => ({ status: 500, body: { code: 'INTERNAL' } }),
    });
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    await fillIn(user, { old: OLD, new: NEW, confirm: NEW });
    await submit(user);
    await waitFor(() => expect(notifications.items.map((item) => [item.kind, item.key])).toEqual([['error', 'errors.INTERNAL']]));
  });

  it('shows her result-notice choice and saves a change at once', async () => {
    setSignedIn(anna);
    const requests = fakeApi({
      ...noticesOn,
      'GET /auth/csrf': csrf,
      'PATCH /user/notices': (request) => ({ body: request.body }),
    });
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    const card = screen.getByRole('region', { name: 'Notifications' });
    const box = await within(card).findByRole('checkbox', { name: RESULT_NOTICES });
    expect((box as HTMLInputElement).checked).toBe(true);

    await user.click(box);
    await waitFor(() => expect(notifications.items.map((item) => [item.kind, item.key])).toEqual([['success', 'profile.notices.saved']]));
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch).toMatchObject({ path: '/user/notices', body: { resultNotices: false } });
    expect(patch?.headers['X-CSRF-Token']).toBe('t');
    expect((within(card).getByRole('checkbox', { name: RESULT_NOTICES }) as HTMLInputElement).checked).toBe(false);
  });

  it('puts the box back and says so when the change cannot be saved', async () => {
    setSignedIn(anna);
    fakeApi({
      ...noticesOn,
      'GET /auth/csrf': csrf,
      'PATCH /user/notices': () => ({ status: 500, body: { code: 'INTERNAL' } }),
    });
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    const box = await screen.findByRole('checkbox', { name: RESULT_NOTICES });
    await user.click(box);
    await waitFor(() => expect(notifications.items.map((item) => [item.kind, item.key])).toEqual([['error', 'errors.INTERNAL']]));
    await waitFor(() => expect((screen.getByRole('checkbox', { name: RESULT_NOTICES }) as HTMLInputElement).checked).toBe(true));
  });

  it('offers a retry when her choice cannot be loaded', async () => {
    setSignedIn(anna);
    let calls = 0;
    fakeApi({
      'GET /user/notices': () => (++calls === 1 ? { status: 500, body: { code: 'INTERNAL' } } : { body: { resultNotices: false } }),
    });
    const user = userEvent.setup();
    renderAt('/portal/profile', <ProfilePage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Your notification settings could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const box = await screen.findByRole('checkbox', { name: RESULT_NOTICES });
    expect((box as HTMLInputElement).checked).toBe(false);
  });

  it('leaves the notices out while the patient must change her password', () => {
    setSignedIn(ewa);
    const requests = fakeApi({});
    renderAt('/portal/profile', <ProfilePage />);
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(requests).toEqual([]);
  });
});
