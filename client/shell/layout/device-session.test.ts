// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { demoPatient, fakeApi } from '../../testing/session';
import { session, setSignedIn, setSignedOut } from '../../stores/session-store';
import { notifications } from '../../stores/notification-store';
import { hasUnlockedCopies, lockAllCopies } from '../../documents/copies-lock';
import { rememberDeviceOwner, rememberedDeviceOwner } from '../../documents/device-owner';
import { endDeviceSession, IDLE_TIMEOUT_MS, watchDeviceSession } from './device-session';
import { hasKeptCopies, keepList, startKeeping, stopKeeping, unlockKeptCopies } from '../../documents/offline-copies';

vi.mock('wouter/use-browser-location', async (original) => ({
  ...(await original<typeof import('wouter/use-browser-location')>()),
  navigate: vi.fn(),
}));

const PATIENT = `u:${demoPatient.id}`;

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  watchDeviceSession(new Promise(() => undefined));
});
afterAll(() => vi.useRealTimers());
beforeEach(async () => {
  lockAllCopies();
  await stopKeeping(PATIENT);
  notifications.items = [];
  vi.mocked(navigate).mockClear();
  session.status = 'unknown';
  session.user = null;
});

/** Lets the dynamic imports and the device database answer. */
const settle = () => vi.waitFor(async () => undefined);

describe('endDeviceSession', () => {
  it('forgets a patient who keeps nothing on this device', async () => {
    rememberDeviceOwner(PATIENT);
    await endDeviceSession(PATIENT);
    expect(rememberedDeviceOwner()).toBeNull();
  });

  it('locks the copies of a patient who chose to keep them, and leaves them and her owner key', async () => {
    await startKeeping(PATIENT, '482915');
    await keepList(PATIENT, 'screenings', { items: [] });
    await unlockKeptCopies(PATIENT, '482915');
    rememberDeviceOwner(PATIENT);
    expect(hasUnlockedCopies()).toBe(true);
    await endDeviceSession(PATIENT);
    expect(hasUnlockedCopies()).toBe(false);
    expect(rememberedDeviceOwner()).toBe(PATIENT);
    expect(await hasKeptCopies(PATIENT)).toBe(true);
  });
});

describe('the end of her session', () => {
  it('is noticed when the session answers nobody after her (the server ended it)', async () => {
    setSignedIn(demoPatient);
    rememberDeviceOwner(PATIENT);
    setSignedOut();
    await vi.waitFor(() => expect(rememberedDeviceOwner()).toBeNull());
  });

  it('comes after 15 minutes without her input or a request, and signs her out', async () => {
    const requests = fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 'token' } }),
      'GET /auth/logout': () => ({ status: 401, body: { code: 'UNAUTHENTICATED' } }),
    });
    setSignedIn(demoPatient);
    rememberDeviceOwner(PATIENT);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 60_000);
    // Her input starts the count again.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 30_000);
    await settle();
    expect(session.status).toBe('signedIn');

    vi.advanceTimersByTime(60_000);
    await vi.waitFor(() => expect(session.status).toBe('signedOut'));
    expect(requests.map((request) => request.path)).toContain('/auth/logout');
    expect(navigate).toHaveBeenCalledWith('/');
    expect(notifications.items.map((item) => item.key)).toContain('offline.idle.ended');
    await vi.waitFor(() => expect(rememberedDeviceOwner()).toBeNull());
  });

  it('ends before the first tap of a device woken after the timeout counts as her activity', async () => {
    fakeApi({ 'GET /auth/logout': () => ({ status: 401, body: { code: 'UNAUTHENTICATED' } }) });
    setSignedIn(demoPatient);
    // The tablet slept: no timer ran, only the clock moved on.
    vi.setSystemTime(Date.now() + IDLE_TIMEOUT_MS + 1_000);
    window.dispatchEvent(new Event('pointerdown'));
    await vi.waitFor(() => expect(session.status).toBe('signedOut'));
  });

  it('locks copies opened offline with her PIN after 15 minutes idle, and leaves the page', async () => {
    await startKeeping(PATIENT, '482915');
    await unlockKeptCopies(PATIENT, '482915');
    setSignedOut();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS + 15_000);
    await vi.waitFor(() => expect(hasUnlockedCopies()).toBe(false));
    expect(navigate).toHaveBeenCalledWith('/');
    expect(notifications.items.map((item) => item.key)).toContain('offline.idle.locked');
  });
});
