import { useEffect } from 'react';
import type { OwnerKey } from '../lib/device-db';
import { useSession } from '../stores/session-store';
import { currentOwnerKey, ownerKeyOf, rememberDeviceOwner } from './device-owner';

/**
 * Whose copies this page may read on the device: the signed-in patient (remembered as the
 * device's owner), else, offline, the owner remembered before.
 */
export function useDeviceOwner(): OwnerKey | null {
  const { user } = useSession();
  const signedInOwner = user ? ownerKeyOf(user) : null;
  useEffect(() => {
    if (signedInOwner) rememberDeviceOwner(signedInOwner);
  }, [signedInOwner]);
  return signedInOwner ?? currentOwnerKey(null);
}
