import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { OwnerKey } from '../lib/device-db';

/**
 * Which owners' kept copies are open in this page, and which page waits for a PIN. Light on
 * purpose (no device database, no crypto): the app's shell reads it on every page.
 *
 * A private key unwrapped with her PIN lives here only, in memory: never on the device, gone with
 * the page, and dropped when her session ends or the page stays idle (client/shell/layout/device-session.ts).
 */
const unlockedKeys = new Map<OwnerKey, CryptoKey>();

type LockState = {
  /** A page that found her copies locked: the PIN prompt stands in for it. */
  pinFor: { ownerKey: OwnerKey; path: string } | null;
};

const lockState = proxy<LockState>({ pinFor: null });

/** Reading a kept copy needs her PIN first: the page asks for it (requestPin). */
export class CopiesLockedError extends Error {
  constructor(readonly ownerKey: OwnerKey) {
    super('the kept copies are locked');
    this.name = 'CopiesLockedError';
  }
}

export function isCopiesLocked(error: unknown): error is CopiesLockedError {
  return error instanceof CopiesLockedError;
}

export function unlockedKeyOf(ownerKey: OwnerKey): CryptoKey | undefined {
  return unlockedKeys.get(ownerKey);
}

export function holdUnlockedKey(ownerKey: OwnerKey, key: CryptoKey): void {
  unlockedKeys.set(ownerKey, key);
  if (lockState.pinFor?.ownerKey === ownerKey) lockState.pinFor = null;
}

export function hasUnlockedCopies(): boolean {
  return unlockedKeys.size > 0;
}

const lockListeners = new Set<() => void>();

/** `listener` drops what it read from the copies when they are locked again (its session ended). */
export function onCopiesLocked(listener: () => void): () => void {
  lockListeners.add(listener);
  return () => lockListeners.delete(listener);
}

/** Forgets every unwrapped key, and what was read with them: reading the copies again needs the PIN. */
export function lockAllCopies(): void {
  unlockedKeys.clear();
  declined.clear();
  lockState.pinFor = null;
  for (const listener of lockListeners) listener();
}

/** Pages whose prompt gave up: they show what they can without her copies, not the prompt again. */
const declined = new Set<string>();
const requestKey = (ownerKey: OwnerKey, path: string) => `${ownerKey}\n${path}`;

/** The page at `path` shows her copies only once she typed her PIN. */
export function requestPin(ownerKey: OwnerKey, path: string): void {
  if (unlockedKeys.has(ownerKey) || declined.has(requestKey(ownerKey, path))) return;
  lockState.pinFor = { ownerKey, path };
}

/** The prompt gives up (nothing of hers is kept any more): the page shows what it can without. */
export function cancelPinRequest(): void {
  if (lockState.pinFor) declined.add(requestKey(lockState.pinFor.ownerKey, lockState.pinFor.path));
  lockState.pinFor = null;
}

/** The owner whose PIN the page at `path` waits for; null when it waits for none. */
export function usePinRequest(path: string): OwnerKey | null {
  const { pinFor } = useSnapshot(lockState);
  return pinFor && pinFor.path === path ? pinFor.ownerKey : null;
}

/** A view that found `ownerKey`'s copies locked (null: it did not) has its page ask for her PIN. */
export function useAskPin(ownerKey: OwnerKey | null): void {
  const [path] = useLocation();
  useEffect(() => {
    if (ownerKey) requestPin(ownerKey, path);
  }, [ownerKey, path]);
}
