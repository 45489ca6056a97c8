import type { PaymentStatus } from '@common/types/orders';
import type { MessageKey } from '../../../lib/intl';
import type { StateTone } from '../status/OrderStateMessage';

export type PaymentOutcome = { tone: StateTone; key: MessageKey; backLink: boolean; reload: boolean };

/**
 * Spec section 4, the after-payment page: what a verified status means to her. `cancelledByReturn`:
 * the checkout sent her back with `error`, which is a cancelled payment whatever the status says yet.
 * Null: nothing is known yet (the spinner).
 */
export function paymentOutcome(status: PaymentStatus | string | null, cancelledByReturn: boolean): PaymentOutcome | null {
  if (cancelledByReturn) return { tone: 'error', key: 'orders.payment.cancelled', backLink: true, reload: false };
  if (status === null) return null;
  switch (status) {
    case 'COMPLETED':
      return { tone: 'success', key: 'orders.payment.completed', backLink: false, reload: false };
    case 'PENDING':
      return { tone: 'info', key: 'orders.payment.pending', backLink: false, reload: true };
    case 'NEW':
      return { tone: 'warning', key: 'orders.payment.new', backLink: true, reload: false };
    case 'CANCELED':
      return { tone: 'error', key: 'orders.payment.cancelled', backLink: true, reload: false };
    default:
      return { tone: 'error', key: 'orders.payment.failed', backLink: true, reload: false };
  }
}
