import { useState } from 'react';
import { notify } from '../../stores/notification-store';
import { notifyCancelFailure, notifyPaymentFailure } from './order-messages';
import { cancelOrder, goToCheckout, startPayment } from './orders-api';

export type OrderActions = {
  /** Which action is under way; `pay` stays set while the browser leaves for the checkout. */
  busy: 'pay' | 'cancel' | null;
  pay: (orderId: number, consultationRegistrationId?: number) => Promise<void>;
  cancel: (orderId: number) => Promise<void>;
};

/**
 * Paying again and cancelling an unpaid order, from its status page or the after-payment page.
 * `onChanged` asks the page to read the order again: after a cancel, and after a failure, since a
 * refusal (ORDER_NOT_PAYABLE) means the order changed under her.
 */
export function useOrderActions(onChanged: () => void): OrderActions {
  const [busy, setBusy] = useState<OrderActions['busy']>(null);

  async function pay(orderId: number, consultationRegistrationId?: number) {
    setBusy('pay');
    try {
      goToCheckout(await startPayment(orderId, consultationRegistrationId));
    } catch (error) {
      notifyPaymentFailure(error);
      setBusy(null);
      onChanged();
    }
  }

  async function cancel(orderId: number) {
    setBusy('cancel');
    try {
      await cancelOrder(orderId);
      notify({ kind: 'success', key: 'orders.cancelled' });
    } catch (error) {
      notifyCancelFailure(error);
    }
    setBusy(null);
    onChanged();
  }

  return { busy, pay, cancel };
}
