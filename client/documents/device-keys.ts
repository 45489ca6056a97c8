import { deleteOwner, getOwnerKeys, putOwnerKeys, setFailedAttempts, type OwnerKey } from '../lib/device-db';
import { createKeys, open, seal, unwrapPrivateKey, WrongPinError, type Sealed } from '../lib/sealed-box';
import { CopiesLockedError, holdUnlockedKey, unlockedKeyOf } from './copies-lock';

/**
 * An owner's keys on this device (issue 16): made when she chooses to keep copies and sets her
 * PIN, deleted with her copies when she stops. Sealing a copy needs only her public key (she
 * reads online without a PIN); opening one needs her private key, unwrapped with the PIN.
 */

/** Wrong PINs in a row before her copies are deleted: a guesser gets five tries, not a million. */
export const MAX_PIN_ATTEMPTS = 5;

/** Whether she chose to keep copies on this device (her keys are here). */
export async function keepsCopies(ownerKey: OwnerKey): Promise<boolean> {
  return (await getOwnerKeys(ownerKey)) !== undefined;
}

/** Her choice to keep copies, with the PIN that will open them. */
export async function createOwnerKeys(ownerKey: OwnerKey, pin: string): Promise<void> {
  const keys = await createKeys(pin);
  await putOwnerKeys({ ownerKey, ...keys, failedAttempts: 0, createdAt: new Date().toISOString() });
}

/** How many PINs she may still try; null when she keeps no copies. */
export async function pinAttemptsLeft(ownerKey: OwnerKey): Promise<number | null> {
  const keys = await getOwnerKeys(ownerKey);
  return keys ? Math.max(0, MAX_PIN_ATTEMPTS - keys.failedAttempts) : null;
}

export type UnlockOutcome =
  | { kind: 'unlocked' }
  | { kind: 'wrongPin'; attemptsLeft: number }
  /** The last attempt failed: her copies and keys are deleted. */
  | { kind: 'erased' }
  /** Nothing of hers is kept (any more). */
  | { kind: 'none' };

/** Opens her copies for this page with `pin`; each wrong PIN counts, and the fifth deletes them. */
export async function unlockOwner(ownerKey: OwnerKey, pin: string): Promise<UnlockOutcome> {
  const keys = await getOwnerKeys(ownerKey);
  if (!keys) return { kind: 'none' };
  try {
    const privateKey = await unwrapPrivateKey(keys, pin);
    if (keys.failedAttempts > 0) await setFailedAttempts(ownerKey, 0);
    holdUnlockedKey(ownerKey, privateKey);
    return { kind: 'unlocked' };
  } catch (error) {
    if (!(error instanceof WrongPinError)) throw error;
    const failed = keys.failedAttempts + 1;
    if (failed >= MAX_PIN_ATTEMPTS) {
      await deleteOwner(ownerKey);
      return { kind: 'erased' };
    }
    await setFailedAttempts(ownerKey, failed);
    return { kind: 'wrongPin', attemptsLeft: MAX_PIN_ATTEMPTS - failed };
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `plain` sealed for her; null when she keeps no copies (then nothing of hers may be kept). */
export async function sealFor(ownerKey: OwnerKey, plain: BufferSource, context: string): Promise<Sealed | null> {
  const keys = await getOwnerKeys(ownerKey);
  return keys ? seal(keys.publicKey, plain, `${ownerKey}\n${context}`) : null;
}

export function sealJsonFor(ownerKey: OwnerKey, value: unknown, context: string): Promise<Sealed | null> {
  return sealFor(ownerKey, encoder.encode(JSON.stringify(value)), context);
}

/** The plain bytes of her copy; CopiesLockedError until her PIN opened her copies in this page. */
export async function openFor(ownerKey: OwnerKey, sealed: Sealed, context: string): Promise<ArrayBuffer> {
  const privateKey = unlockedKeyOf(ownerKey);
  if (!privateKey) throw new CopiesLockedError(ownerKey);
  return open(privateKey, sealed, `${ownerKey}\n${context}`);
}

export async function openJsonFor<T>(ownerKey: OwnerKey, sealed: Sealed, context: string): Promise<T> {
  return JSON.parse(decoder.decode(await openFor(ownerKey, sealed, context))) as T;
}
