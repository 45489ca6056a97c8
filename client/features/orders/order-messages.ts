import { isApiError } from '../../lib/api';
import type { MessageKey } from '../../lib/intl';
import { errorMessageKey } from '../../stores/error-messages';
import { notify } from '../../stores/notification-store';

/**
 * The order and payment failures of spec section 8, by the server's code (docs/api.md). Written out
 * key by key: the catalog test finds used keys by their literal text.
 */
const ORDER_ERROR_KEYS: Readonly<Record<string, MessageKey>> = {
  ORDER_ALREADY_EXISTS: 'errors.ORDER_ALREADY_EXISTS',
  SLOT_TAKEN: 'errors.SLOT_TAKEN',
  ORDER_NOT_PAYABLE: 'errors.ORDER_NOT_PAYABLE',
  PRODUCT_UNAVAILABLE: 'errors.PRODUCT_UNAVAILABLE',
  NO_CONNECTION: 'errors.NO_CONNECTION',
};

/** What went wrong, in the server's words where its code says more than the step's own message. */
function failureKey(error: unknown, fallback: MessageKey): MessageKey {
  if (!isApiError(error)) return fallback;
  const known = ORDER_ERROR_KEYS[error.code];
  if (known) return known;
  // Codes every call can answer (offline, session over, not found); anything else is the step's message.
  const general = errorMessageKey(error.code);
  return general === 'errors.generic' || error.code === 'INTERNAL' ? fallback : general;
}

/**
 * Spec section 8: a failed order stays on screen until she closes it (no auto-close), so she can
 * read it and quote it to the provider.
 */
export function notifyOrderFailure(error: unknown): void {
  notify({ kind: 'error', key: failureKey(error, 'orders.errors.create'), persistent: true });
}

/** The checkout could not be opened; the order itself exists and can be paid from its status page. */
export function notifyPaymentFailure(error: unknown): void {
  notify({ kind: 'error', key: failureKey(error, 'orders.errors.redirect') });
}

/** Cancelling failed (e.g. it was paid meanwhile). */
export function notifyCancelFailure(error: unknown): void {
  notify({ kind: 'error', key: failureKey(error, 'orders.errors.cancel') });
}
