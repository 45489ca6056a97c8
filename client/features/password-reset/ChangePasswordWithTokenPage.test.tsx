// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { resetCsrfToken } from '../../lib/api';
import { sha256Hex } from '../../lib/sha256';
import { fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import ChangePasswordWithTokenPage from './ChangePasswordWithTokenPage';
import { earlyTokenVerdict, startTokenCheck } from './token-check';

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TOKEN = '0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60';
const csrf = () => ({ body: { csrfToken: 't' } });

function open(path: string, routes: FakeRoutes) {
  const requests = fakeApi({
    'GET /auth/csrf': csrf,
    'GET /auth/session': () => ({ body: { user: null } }),
    ...routes,
  });
  const rendered = renderAt(path, <Route path="/change-password/:token" component={ChangePasswordWithTokenPage} />);
  return { requests, ...rendered };
}

async function expectWarning(message: string) {
  expect((await screen.findByRole('alert')).textContent).toContain(message);
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This link cannot be used');
  expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/reset-password');
  expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
}

describe('ChangePasswordWithTokenPage', () => {
  it('refuses a last segment that is not a UUID without asking the server', async () => {
    const { requests } = open('/change-password/abc123', {});
    await expectWarning('This password link is not valid');
    expect(requests).toEqual([]);
  });

  it.each([
    ['USED_TOKEN', 410, 'This password link has already been used.'],
    ['EXPIRED_TOKEN', 410, 'This password link has expired.'],
    ['INVALID_TOKEN', 400, 'This password link is not valid'],
    ['MISSING_TOKEN', 400, 'The link is missing its password code.'],
  ])('shows %s from the verification on the warning screen', async (code, status, message) => {
    open(`/change-password/${TOKEN}`, { 'POST /auth/password/token': () => ({ status, body: { code } }) });
    await expectWarning(message);
  });

  it('verifies the link, refuses a weak password, then sets the hashed one and goes on', async () => {
    const { requests, location } = open(`/change-password/${TOKEN}`, {
      'POST /auth/password/token': () => ({ body: {} }),
      'PATCH /auth/password/token': () => ({ body: {} }),
    });
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/^New password/), 'krotkie');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'krotkie');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('The new password must be at least 12 characters long')).toBeTruthy();
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);

    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'Trzy zwykle slowa');
    await user.clear(screen.getByLabelText(/^Repeat the new password/));
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'Trzy zwykle slowa');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    await waitFor(() => expect(location.history?.at(-1)).toBe('/password-changed'));
    const hash = await sha256Hex('Trzy zwykle slowa');
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ token: TOKEN, password: hash, confirm: hash });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ token: TOKEN });
  });

  it('shows a token problem on submit as an error notification', async () => {
    open(`/change-password/${TOKEN}`, {
      'POST /auth/password/token': () => ({ body: {} }),
      'PATCH /auth/password/token': () => ({ status: 410, body: { code: 'USED_TOKEN' } }),
    });
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/^New password/), 'Trzy zwykle slowa');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'Trzy zwykle slowa');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    await waitFor(() => expect(notifications.items.map((n) => [n.kind, n.key])).toEqual([['error', 'errors.USED_TOKEN']]));
  });

  it("shows the server's refusal of a breached password under the new-password field", async () => {
    open(`/change-password/${TOKEN}`, {
      'POST /auth/password/token': () => ({ body: {} }),
      'PATCH /auth/password/token': () => ({
        status: 400,
        body: { code: 'VALIDATION', issues: [{ path: 'password', message: 'validation.password.common' }] },
      }),
    });
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/^New password/), 'Trzy zwykle slowa');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'Trzy zwykle slowa');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    expect(await screen.findByText('This password is too common and easy to guess. Choose a different one.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^New password/));
    expect(notifications.items).toEqual([]);
  });

  it('says when the passwords differ', async () => {
    open(`/change-password/${TOKEN}`, { 'POST /auth/password/token': () => ({ body: {} }) });
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/^New password/), 'Trzy zwykle slowa');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'Trzy zwykle slowa!');
    await user.click(screen.getByRole('button', { name: 'Set password' }));

    expect(await screen.findByText('The two passwords that you entered do not match!')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Repeat the new password/));
  });
});

describe('the link checked while the app loads (main.tsx)', () => {
  const page = <Route path="/change-password/:token" component={ChangePasswordWithTokenPage} />;
  const posts = (requests: { method: string }[]) => requests.filter((request) => request.method === 'POST');

  it("gives the page's first render the verdict, and asks the server once", async () => {
    const requests = fakeApi({
      'GET /auth/csrf': csrf,
      'POST /auth/password/token': () => ({ status: 410, body: { code: 'USED_TOKEN' } }),
    });
    startTokenCheck(`/change-password/${TOKEN}`);
    await waitFor(() => expect(earlyTokenVerdict(TOKEN)).toBeDefined());

    renderAt(`/change-password/${TOKEN}`, page);
    expect(screen.getByRole('alert').textContent).toContain('This password link has already been used.');
    expect(screen.queryByRole('status')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(posts(requests)).toHaveLength(1);
  });

  it('shows the form once an early check still under way says the link is usable', async () => {
    let answer: (value: { body: object }) => void = () => undefined;
    const requests = fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/password/token': () => new Promise((resolve) => (answer = resolve)) });
    startTokenCheck(`/change-password/${TOKEN}`);
    await waitFor(() => expect(posts(requests)).toHaveLength(1));

    renderAt(`/change-password/${TOKEN}`, page);
    expect(screen.getByRole('status').textContent).toContain('Checking the link');
    answer({ body: {} });
    expect(await screen.findByLabelText(/^New password/)).toBeTruthy();
    expect(posts(requests)).toHaveLength(1);
  });

  it('asks again when the same link is opened later: it may have been used meanwhile', async () => {
    const requests = fakeApi({ 'GET /auth/csrf': csrf, 'POST /auth/password/token': () => ({ body: {} }) });
    startTokenCheck(`/change-password/${TOKEN}`);
    await waitFor(() => expect(earlyTokenVerdict(TOKEN)).toBeDefined());
    renderAt(`/change-password/${TOKEN}`, page);
    expect(await screen.findByLabelText(/^New password/)).toBeTruthy();
    cleanup();

    renderAt(`/change-password/${TOKEN}`, page);
    expect(screen.getByRole('status')).toBeTruthy();
    expect(await screen.findByLabelText(/^New password/)).toBeTruthy();
    expect(posts(requests)).toHaveLength(2);
  });

  it('sends nothing for another page or a last segment that is not a token', () => {
    const requests = fakeApi({});
    startTokenCheck('/change-password/abc123');
    startTokenCheck('/reset-password');
    expect(requests).toEqual([]);
    expect(earlyTokenVerdict('abc123')).toBeUndefined();
  });
});
