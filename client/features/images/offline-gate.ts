import { api, isApiError } from '../../lib/api';
import { rememberedDeviceOwner } from '../../documents/device-owner';
import { isImageSetKept } from './kept-images';

/**
 * Whether a signed-out browser may open the images of screening `id` from the device: only when
 * the session cannot be asked for want of a network, and only for images kept by the owner last
 * signed in on this device (as documents/offline-gate.ts does for kept results); they are sealed,
 * and the page shows them once her PIN opened them.
 */
export async function hasKeptImagesOffline(id: number | undefined | null): Promise<boolean> {
  const ownerKey = rememberedDeviceOwner();
  if (typeof id !== 'number' || !ownerKey) return false;
  if (!(await isImageSetKept(ownerKey, id).catch(() => false))) return false;
  if (navigator.onLine === false) return true;
  // GET /api/auth/session answers a visitor 200: only a network failure says "offline".
  return api.get('/auth/session').then(
    () => false,
    (error: unknown) => isApiError(error, 'NETWORK'),
  );
}
