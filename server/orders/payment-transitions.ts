import type { PaymentStatus } from '../../common/types/orders';

/**
 * What a verified report of a payment's status (a notification, or the provider's answer to a
 * retrieval) does to the payment we keep. Status moves only forward: NEW, then PENDING, then
 * COMPLETED or CANCELED, which are final.
 */
export type TransitionOutcome =
  /** the status changes to the reported one */
  | 'applied'
  /** the same status again: a retried notification */
  | 'replay'
  /** an older status after a newer one (PENDING after COMPLETED): ignored */
  | 'stale'
  /** the amount or currency is not the order's: never completed, flagged for staff */
  | 'amount_mismatch'
  /** money arrived for a payment we had cancelled (expired): flagged for staff to refund */
  | 'paid_after_cancel';

const RANK: Record<PaymentStatus, number> = { NEW: 0, PENDING: 1, COMPLETED: 2, CANCELED: 2 };
const isFinal = (status: PaymentStatus) => RANK[status] === 2;

type Reported = { status: PaymentStatus; amountGrosze: number; currency: string };

export function decideTransition(current: Reported, reported: Reported): TransitionOutcome {
  if (reported.status === current.status) return 'replay';
  if (reported.status === 'COMPLETED' && (reported.amountGrosze !== current.amountGrosze || reported.currency !== current.currency)) {
    return 'amount_mismatch';
  }
  if (isFinal(current.status)) return current.status === 'CANCELED' && reported.status === 'COMPLETED' ? 'paid_after_cancel' : 'stale';
  return RANK[reported.status] > RANK[current.status] ? 'applied' : 'stale';
}
