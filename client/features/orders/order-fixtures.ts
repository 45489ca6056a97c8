import type { OrderStatusView, PaymentStatus } from '@common/types/orders';

/** An order as `GET /api/order/{id}/status` answers it, for the order pages' tests. */
export function orderView(status: PaymentStatus, overrides: Partial<OrderStatusView['order']> = {}): OrderStatusView {
  const unpaid = status === 'NEW' || status === 'PENDING';
  return {
    status,
    order: {
      id: 42,
      number: 'MP-000042',
      screeningId: 41,
      portalProduct: {
        code: 'translation-en',
        kind: 'translation_en',
        name: { pl: 'Tłumaczenie opisu na angielski', en: 'Translation into English' },
        description: { pl: 'Opis badania po angielsku', en: 'Your screening description in English' },
      },
      price: { amountGrosze: 4900, currency: 'PLN' },
      shipmentStatus: 'not_applicable',
      done: status === 'CANCELED',
      createdAt: '2026-10-06T08:30:00Z',
      expiresAt: unpaid ? '2026-10-06T09:30:00Z' : null,
      consultation: null,
      canPay: unpaid,
      canCancel: unpaid,
      ...overrides,
    },
  };
}
