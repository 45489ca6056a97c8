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
 * The user menu's "Log out": when she chose to keep copies on this device it opens the question
 * (`ask`); otherwise nothing of hers is kept, there is nothing to decide, and she is logged out
 * at once (./device-session.ts then forgets her on this device).
 */
export async function startLogout(user: SessionUser | null, ask: () => void): Promise<void> {
  const ownerKey = currentOwnerKey(user);
  const keeps = ownerKey
    ? await offlineCopies()
        .then(({ keepsCopies }) => keepsCopies(ownerKey))
        .catch(() => false)
    : false;
  if (keeps) ask();
  else await signOut();
}

/**
 * Asks before logging out whether the copies she chose to keep stay on this device (sealed, opened
 * offline with her PIN). Not keeping them (the default, for shared computers) deletes them, with
 * her PIN's keys, before the logout request is sent.
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
        if (ownerKey) await (await offlineCopies()).stopKeeping(ownerKey);
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
          <p>{t('offline.logout.text')}</p>
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
