import type { SessionUser } from '@common/types/session';
import type { OwnerKey } from '../lib/device-db';

/**
 * Who the offline copies belong to. Offline the session cannot be asked, so the last signed-in
 * owner is remembered on the device: the installed app then finds the copies she chose to keep.
 * Finding is all it does (issue 16): they are sealed, and only her PIN opens them. She is forgotten
 * when her session ends unless she keeps copies here (client/shell/layout/device-session.ts).
 */
const DEVICE_OWNER_STORAGE = 'portal.deviceOwner';

export function ownerKeyOf(user: SessionUser): OwnerKey | null {
  if (user.id !== null && !user.guest) return `u:${user.id}`;
  return user.screeningId !== null ? `g:${user.screeningId}` : null;
}

export function rememberDeviceOwner(ownerKey: OwnerKey): void {
  try {
    localStorage.setItem(DEVICE_OWNER_STORAGE, ownerKey);
  } catch {
    // Storage switched off: offline copies then open only while the session is known.
  }
}

export function rememberedDeviceOwner(): OwnerKey | null {
  try {
    return localStorage.getItem(DEVICE_OWNER_STORAGE);
  } catch {
    return null;
  }
}

export function forgetDeviceOwner(): void {
  try {
    localStorage.removeItem(DEVICE_OWNER_STORAGE);
  } catch {
    // Nothing was stored.
  }
}

/** The owner of the session the browser knows, else the one remembered on this device. */
export function currentOwnerKey(user: SessionUser | null): OwnerKey | null {
  return (user && ownerKeyOf(user)) ?? rememberedDeviceOwner();
}
