import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Checkbox } from '../../components/ui/Checkbox';
import { Dialog } from '../../components/ui/Dialog';
import { useT } from '../../lib/intl';
import { logout, useSession } from '../../stores/session-store';
import { notifyError } from '../../stores/error-messages';
import { currentOwnerKey, forgetDeviceOwner } from '../../documents/device-owner';
import { forgetResumableUploads } from '../../features/upload/resume-storage';
import type { SessionUser } from '@common/types/session';

/**
 * The device database's code, loaded when logging out: the menu is in every signed-in page's
 * header, and on a first visit its code would otherwise compete with the page's own.
 */
const offlineCopies = () => import('../../documents/offline-copies');

/** Logging out always forgets her half-sent uploads on this device (a shared computer), whatever she keeps. */
async function endSession(): Promise<void> {
  forgetResumableUploads();
  await logout();
}

async function signOut(): Promise<void> {
  try {
    await endSession();
  } catch (error) {
    notifyError(error);
  }
}

/**
 * The user menu's "Log out": with offline copies on this device it opens the question
 * (`ask`); without any there is nothing to decide and the user is logged out at once.
 */
export async function startLogout(user: SessionUser | null, ask: () => void): Promise<void> {
  const ownerKey = currentOwnerKey(user);
  const kept = ownerKey
    ? await offlineCopies()
        .then(({ hasKeptCopies }) => hasKeptCopies(ownerKey))
        .catch(() => false)
    : false;
  if (kept) ask();
  else await signOut();
}

/**
 * Asks before logging out whether the offline copies stay on this device. Not keeping them (the
 * default, for shared computers) deletes them before the logout request is sent.
 */
export function LogoutDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) {
  const t = useT();
  const { user } = useSession();
  const [keep, setKeep] = useState(false);
  const [pending, setPending] = useState(false);

  async function confirm() {
    setPending(true);
    try {
      if (!keep) {
        const ownerKey = currentOwnerKey(user);
        if (ownerKey) await (await offlineCopies()).deleteAllKept(ownerKey);
        forgetDeviceOwner();
      }
      await endSession();
      onOpenChange(false);
    } catch (error) {
      notifyError(error);
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog title={t('offline.logout.title')} isOpen={isOpen} onOpenChange={onOpenChange}>
      {({ close }) => (
        <>
          <Checkbox isSelected={keep} onChange={setKeep}>
            {t('offline.logout.keep')}
          </Checkbox>
          <div className="dialog__actions">
            <Button variant="secondary" onPress={close}>
              {t('offline.logout.cancel')}
            </Button>
            <Button onPress={() => void confirm()} isPending={pending}>
              {t('userMenu.logout')}
            </Button>
          </div>
        </>
      )}
    </Dialog>
  );
}
