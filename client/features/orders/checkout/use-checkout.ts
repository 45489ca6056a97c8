import { useState } from 'react';
import type { OrderCreated, Product } from '@common/types/orders';
import { isApiError } from '../../../lib/api';
import type { Language } from '../../../stores/prefs-store';
import { notifyOrderFailure, notifyPaymentFailure } from '../order-messages';
import { createConsultationOrder, createTranslationOrder, goToCheckout, startPayment } from '../orders-api';

export type CheckoutChoice = { product: Product; documentId: string | null; slotId: number | null };

export type PlacedOrder = OrderCreated & { slotId: number | null };

type CheckoutInput = { screeningId: number; userId: number | null; language: Language; onSlotTaken: () => void };

/** What she picked, as one key: an order placed for one choice is paid again for the same one. */
function choiceKey(choice: CheckoutChoice): string {
  return `${choice.product.id}:${choice.documentId ?? ''}:${choice.slotId ?? ''}`;
}

function placeOrder({ screeningId, userId, language }: CheckoutInput, choice: CheckoutChoice): Promise<OrderCreated> {
  const productId = choice.product.id;
  if (choice.product.kind === 'consultation') {
    return createConsultationOrder({
      screeningId,
      productId,
      consultationRegistrationId: choice.slotId ?? 0,
      userId: userId ?? 0,
      language,
    });
  }
  return createTranslationOrder({ screeningId, productId, documentId: choice.documentId ?? '', language });
}

/**
 * "Pay": places the order, then opens its payment and leaves for the checkout. When the payment
 * cannot start (the provider is down), the order stays, and the next "Pay" for the same choice
 * pays that order instead of placing a second one (which for a consultation would hold a second slot).
 */
export function useCheckout(input: CheckoutInput) {
  const [placed, setPlaced] = useState<{ key: string; order: PlacedOrder } | null>(null);
  const [phase, setPhase] = useState<'idle' | 'ordering' | 'paying'>('idle');

  async function pay(choice: CheckoutChoice) {
    const key = choiceKey(choice);
    let order = placed?.key === key ? placed.order : null;
    if (!order) {
      setPhase('ordering');
      try {
        order = { ...(await placeOrder(input, choice)), slotId: choice.slotId };
        setPlaced({ key, order });
      } catch (error) {
        notifyOrderFailure(error);
        if (isApiError(error, 'SLOT_TAKEN')) input.onSlotTaken();
        setPhase('idle');
        return;
      }
    }
    setPhase('paying');
    try {
      goToCheckout(await startPayment(order.orderId, order.slotId ?? undefined));
    } catch (error) {
      notifyPaymentFailure(error);
      // Expired or already settled: a new "Pay" places a fresh order.
      if (isApiError(error, 'ORDER_NOT_PAYABLE')) setPlaced(null);
      setPhase('idle');
    }
  }

  return { pay, phase, placed: placed?.order ?? null };
}
