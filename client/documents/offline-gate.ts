import type { SessionAnswer } from '@common/types/session';
import { api, isApiError } from '../lib/api';
import { loadScreeningInfo } from '../stores/session-store';
import { rememberedDeviceOwner } from './device-owner';
import { hasKeptScreening, keptListTimes } from './offline-copies';

/**
 * Whether a signed-out browser may open result page `id` (undefined: the guest's page) from the
 * device: only when the session check fails for want of a network, and only for a copy kept by
 * the owner last signed in on this device. The remembered owner only finds her copies: they are
 * sealed, and the page opens them once she typed her PIN (issue 16).
 */
export async function hasOfflineCopy(id: number | undefined | null): Promise<boolean> {
  if (id === null) return false;
  const ownerKey = rememberedDeviceOwner();
  if (!ownerKey) return false;
  if (!(await hasKeptScreening(ownerKey, id).catch(() => false))) return false;
  // A browser that knows it has no network need not be asked (in airplane mode, asking costs time).
  return navigator.onLine === false || (await loadScreeningInfo(id)).outcome === 'offline';
}

/**
 * Whether the session cannot be asked for want of a network (not because nobody is signed in).
 * `GET /api/auth/session` answers a visitor 200, so asking online leaves no failed request.
 */
function sessionUnreachable(): Promise<boolean> {
  return api.get<SessionAnswer>('/auth/session').then(
    () => false,
    (error: unknown) => isApiError(error, 'NETWORK'),
  );
}

/**
 * Whether a signed-out browser may open the screenings list or the referrals from the device:
 * only when the session could not be asked for want of a network, and only with lists kept by the
 * owner last signed in on this device (another user who signed in since has none of hers); they
 * open once she typed her PIN.
 */
export async function hasOfflineLists(): Promise<boolean> {
  const ownerKey = rememberedDeviceOwner();
  if (!ownerKey) return false;
  const kept = await keptListTimes(ownerKey).catch(() => []);
  if (kept.length === 0) return false;
  // A browser that knows it has no network need not be asked.
  return navigator.onLine === false || sessionUnreachable();
}
