import type { MessageKey } from '../lib/intl';
import { notify } from './notification-store';

/**
 * Server error codes (docs/api.md) and the client's own NETWORK/UNKNOWN codes mapped to catalog
 * keys. A literal map on purpose: the catalog test finds every key by scanning the source.
 * Feature-specific codes (login, orders ...) are translated where they are handled.
 */
const ERROR_MESSAGE_KEYS: Readonly<Record<string, MessageKey>> = {
  INTERNAL: 'errors.INTERNAL',
  NOT_FOUND: 'errors.NOT_FOUND',
  UNAUTHENTICATED: 'errors.UNAUTHENTICATED',
  PASSWORD_CHANGE_REQUIRED: 'errors.PASSWORD_CHANGE_REQUIRED',
  BAD_REQUEST: 'errors.BAD_REQUEST',
  NO_CONNECTION: 'errors.noConnection',
  STORAGE_FULL: 'errors.STORAGE_FULL',
  NETWORK: 'errors.offline',
  UNKNOWN: 'errors.generic',
};

export function errorMessageKey(code: string | null | undefined): MessageKey {
  return (code && ERROR_MESSAGE_KEYS[code]) || 'errors.generic';
}

/** A failure the user should hear about, with the best message its code allows. */
export function notifyError(error: unknown): void {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : null;
  notify({ kind: 'error', key: errorMessageKey(code) });
}
