import { subscribe } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import type { EarlyStartGlobals } from '../../early-start/pre-paint';
import { forgetResumableUploads } from '../../features/upload/resume-storage';
import type { OwnerKey } from '../../lib/device-db';
import { notify } from '../../stores/notification-store';
import { loadProfile, logout, session, setSignedOut } from '../../stores/session-store';
import { hasUnlockedCopies, lockAllCopies } from '../../documents/copies-lock';
import { forgetDeviceOwner, ownerKeyOf, rememberedDeviceOwner } from '../../documents/device-owner';

/**
 * What the device holds of a patient beyond what she chose to keep ends with her session (ASVS
 * 4.0 V8.2.2, issue 16): when she logs out, when the server ended it (15 minutes idle,
 * DECISIONS.md 7) and the portal learns so, and when this page itself stayed idle that long. Her
 * opened copies are locked again (what was read from them is dropped from memory), and unless she
 * keeps copies on this device she is forgotten here: no remembered owner, nothing kept.
 */

/** The server's idle timeout (server/config.ts, DECISIONS.md 7): past it the session is over anyway. */
export const IDLE_TIMEOUT_MS = 15 * 60_000;
const IDLE_CHECK_MS = 15_000;

/** Her own input, not a page that merely became visible again (the next person picking up the tablet). */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

const deviceKeys = () => import('../../documents/device-keys');

/**
 * Clears what the device holds of `ownerKey` that she did not choose to keep; her kept copies
 * (sealed, opened only with her PIN) stay.
 */
export async function endDeviceSession(ownerKey: OwnerKey | null): Promise<void> {
  lockAllCopies();
  forgetResumableUploads();
  // Her result's early requests (client/early-start/pre-paint.ts), if the page never took them.
  delete (globalThis as EarlyStartGlobals).portalEarlyRequests;
  if (!ownerKey) return;
  const { keepsCopies } = await deviceKeys();
  if (await keepsCopies(ownerKey).catch(() => false)) return;
  if (rememberedDeviceOwner() === ownerKey) forgetDeviceOwner();
}

function signedInOwner(): OwnerKey | null {
  return session.status === 'signedIn' && session.user ? ownerKeyOf(session.user) : null;
}

/** Her session ended as far as this page can tell: every way out of a signed-in state. */
function watchSessionEnd(): void {
  let owner = signedInOwner();
  // In sync: a sign-out followed at once by another sign-in must not hide the end between them.
  subscribe(
    session,
    () => {
      const now = signedInOwner();
      // 'unknown' is the start, not an end.
      if (session.status === 'unknown') return;
      if (owner && now !== owner) void endDeviceSession(owner);
      owner = now;
    },
    true,
  );
}

/** The page stayed idle past the timeout: her session is over, and so is what the page shows of her. */
async function endIdleSession(): Promise<void> {
  const owner = signedInOwner();
  if (owner) {
    notify({ kind: 'info', key: 'offline.idle.ended', persistent: true });
    // Ends the server's session too, in case it has not timed out yet (its clock is not this
    // page's); the state change clears the device (watchSessionEnd). Offline the request fails:
    // the page forgets her all the same.
    await logout().catch(() => {
      navigate('/');
      setSignedOut();
    });
  } else if (hasUnlockedCopies()) {
    // Offline, signed out, her copies opened with her PIN: locked again, and off the screen.
    notify({ kind: 'info', key: 'offline.idle.locked', persistent: true });
    navigate('/');
    await endDeviceSession(null);
  }
}

/**
 * Counts the page idle from her last input or request to the portal (a long upload or a polled
 * status keeps the server's session alive, so it keeps this one too).
 */
function watchIdle(timeoutMs: number): void {
  let lastActive = Date.now();
  let ending = false;
  const inUse = () => session.status === 'signedIn' || hasUnlockedCopies();
  const check = () => {
    if (ending || !inUse() || Date.now() - lastActive < timeoutMs) return false;
    ending = true;
    void endIdleSession().finally(() => {
      ending = false;
      lastActive = Date.now();
    });
    return true;
  };
  const active = () => {
    // A phone that slept past the timeout wakes to a tap: the session ends before that tap counts.
    if (!check()) lastActive = Date.now();
  };
  for (const type of ACTIVITY_EVENTS) window.addEventListener(type, active, { capture: true, passive: true });
  try {
    new PerformanceObserver((entries) => {
      const requests = entries.getEntries().filter((entry) => new URL(entry.name, location.href).pathname.startsWith('/api/'));
      if (requests.length === 0) return;
      active();
      // A request refused for want of a session while she is signed in: the server may have ended
      // it (idle); the session answer tells, and its "nobody" ends hers here (watchSessionEnd).
      // Where the browser reports statuses (responseStatus: Chromium, Firefox).
      const refused = requests.some((entry) => (entry as PerformanceResourceTiming & { responseStatus?: number }).responseStatus === 401);
      if (refused && session.status === 'signedIn') void loadProfile();
    }).observe({ type: 'resource' });
  } catch {
    // No resource timing in this browser: her input alone counts.
  }
  document.addEventListener('visibilitychange', check);
  setInterval(check, Math.min(IDLE_CHECK_MS, timeoutMs));
}

/**
 * Copies of earlier versions (kept without asking, in clear) are deleted on the first start of this
 * one: opening the device database upgrades it (client/lib/device-db.ts). An owner remembered on a
 * browser closed without logging out is forgotten unless she keeps copies here.
 */
async function tidyDevice(): Promise<void> {
  const databases = await indexedDB.databases?.().catch(() => []);
  // Dexie stores its version n as IndexedDB version 10n; 4 seals the copies (device-db.ts).
  const outdated = (databases ?? []).some((database) => database.name === 'portal' && (database.version ?? 0) < 40);
  const remembered = rememberedDeviceOwner();
  // Her own session on this page: nothing to tidy, and no database code to load.
  if (!outdated && (!remembered || signedInOwner() === remembered)) return;
  const [{ openDeviceDb }, { keepsCopies }] = await Promise.all([import('../../lib/device-db'), deviceKeys()]);
  if (outdated) await openDeviceDb();
  if (!remembered || signedInOwner() === remembered) return;
  if (!(await keepsCopies(remembered)) && rememberedDeviceOwner() === remembered && signedInOwner() !== remembered) forgetDeviceOwner();
}

/** Started once, with the app (client/app/main.tsx); `tidy` waits until the page has loaded. */
export function watchDeviceSession(afterLoad: Promise<void>, timeoutMs = IDLE_TIMEOUT_MS): void {
  watchSessionEnd();
  watchIdle(timeoutMs);
  void afterLoad.then(tidyDevice).catch(() => undefined);
}
