// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../lib/api';
import { fakeApi, renderAt, startEnglish, type FakeAnswer } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import ContactPage from './ContactPage';

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
const phoneField = () => screen.getByRole('textbox', { name: /^Phone number/ });
const contentField = () => screen.getByRole('textbox', { name: /^Message/ });
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const WARNING = 'Inserted phone number is not a polish phone number';

async function fillIn(user: ReturnType<typeof userEvent.setup>, phone = '600 100 200') {
  await user.type(screen.getByRole('textbox', { name: /^First name/ }), 'Maria');
  await user.type(screen.getByRole('textbox', { name: /^Last name/ }), 'Kowalska');
  await user.type(phoneField(), phone);
  await user.type(contentField(), 'Proszę o kontakt.');
  await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
}

function setup(answer: () => FakeAnswer | Promise<FakeAnswer>) {
  const requests = fakeApi({ 'GET /auth/csrf': csrf, 'POST /contact/create': answer });
  const user = userEvent.setup();
  const view = renderAt('/contact', <ContactPage />);
  return { requests, user, ...view };
}

const notificationTexts = () => notifications.items.map((item) => `${item.kind}: ${item.key}`);

describe('ContactPage', () => {
  it('shows every required message on an empty submit, focuses the first field and sends nothing', async () => {
    const { requests, user } = setup(() => ({ status: 201, body: {} }));
    await user.click(sendButton());

    expect(await screen.findByText('First name not provided')).toBeTruthy();
    expect(screen.getByText('Last name not provided')).toBeTruthy();
    expect(screen.getByText('Phone number not provided')).toBeTruthy();
    expect(screen.getByText('Message content not provided')).toBeTruthy();
    expect(screen.getByText('No consent to data processing')).toBeTruthy();
    expect(screen.queryByText('Entered data are not valid email address')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^First name/ }));
    expect(requests).toEqual([]);
  });

  it('checks a field when it is left, not while it is first typed', async () => {
    const { user } = setup(() => ({ status: 201, body: {} }));
    const email = screen.getByRole('textbox', { name: /^Email address/ });
    await user.type(email, 'maria');
    expect(screen.queryByText('Entered data are not valid email address')).toBeNull();
    await user.tab();
    expect(screen.getByText('Entered data are not valid email address')).toBeTruthy();
    await user.type(email, '@example.com');
    expect(screen.queryByText('Entered data are not valid email address')).toBeNull();
  });

  it.each([
    ['+49 170 1234567', true],
    ['1234567', true],
    ['600 100 200', false],
    ['+48 600 100 200', false],
    ['12345', false],
  ])('phone %j warns that it is not Polish: %s', async (phone, warns) => {
    const { user } = setup(() => ({ status: 201, body: {} }));
    await user.type(phoneField(), phone);
    expect(screen.getByRole('status').textContent).toBe(warns ? WARNING : '');
  });

  it('counts the message in characters and stops at 300', async () => {
    const { user } = setup(() => ({ status: 201, body: {} }));
    await user.type(contentField(), 'Dzień dobry');
    expect(screen.getByText('11 / 300')).toBeTruthy();
    fireEvent.change(contentField(), { target: { value: '😀'.repeat(310) } });
    expect(screen.getByText('300 / 300')).toBeTruthy();
    expect([...(contentField() as HTMLTextAreaElement).value]).toHaveLength(300);
  });

  it('sends the message once with the language, tells the patient about 7 days and shows the success page', async () => {
    let answer!: (value: FakeAnswer) => void;
    const { requests, user, location } = setup(() => new Promise<FakeAnswer>((resolve) => (answer = resolve)));
    await fillIn(user, '+49 170 1234567');
    expect(screen.getByRole('status').textContent).toBe(WARNING);

    await user.click(sendButton());
    await user.click(sendButton());
    await waitFor(() => expect(requests.filter((request) => request.path === '/contact/create')).toHaveLength(1));
    answer({ status: 201, body: {} });

    await waitFor(() => expect(location.history.at(-1)).toBe('/contact/success'));
    expect(requests.find((request) => request.path === '/contact/create')?.body).toEqual({
      firstName: 'Maria',
      lastName: 'Kowalska',
      email: null,
      phoneNumber: '+491701234567',
      content: 'Proszę o kontakt.',
      consent: true,
      language: 'en',
    });
    expect(notificationTexts()).toEqual(['success: contact.success']);
  });

  it('shows the server’s messages under their fields and says the message was not sent', async () => {
    const { user, location } = setup(() => ({
      status: 400,
      body: { code: 'VALIDATION', issues: [{ path: 'phoneNumber', message: 'contact.validation.phone.invalid' }] },
    }));
    await fillIn(user);
    await user.click(sendButton());

    expect(await screen.findByText('Invalid phone number')).toBeTruthy();
    expect(document.activeElement).toBe(phoneField());
    expect(notificationTexts()).toEqual(['error: contact.failure']);
    expect(location.history.at(-1)).toBe('/contact');
  });

  it('shows under the message a character the server cannot store, keeping what she wrote', async () => {
    const { user } = setup(() => ({
      status: 400,
      body: { code: 'VALIDATION', issues: [{ path: 'content', message: 'validation.unstorableCharacter' }] },
    }));
    await fillIn(user);
    await user.click(sendButton());

    expect(await screen.findByText('This field contains a character that cannot be saved. Remove it and try again.')).toBeTruthy();
    expect((contentField() as HTMLTextAreaElement).value).toBe('Proszę o kontakt.');
  });

  it.each([
    [{ status: 500, body: { code: 'INTERNAL' } }, 'contact.failure'],
    [{ status: 429, body: { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 3600 } }, 'contact.tooMany'],
  ])('keeps the form when sending fails (%j)', async (failure, key) => {
    const { user, location } = setup(() => failure);
    await fillIn(user);
    await user.click(sendButton());

    await waitFor(() => expect(notificationTexts()).toEqual([`error: ${key}`]));
    expect(location.history.at(-1)).toBe('/contact');
    expect((contentField() as HTMLTextAreaElement).value).toBe('Proszę o kontakt.');
  });
});
