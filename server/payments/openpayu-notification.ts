import type { PaymentNotification, PortalPaymentStatus } from './provider';

/**
 * The body of a PayU REST v2.1 notification, as PayU sends it to `notifyUrl` and as the built-in
 * sandbox imitates it: order notifications carry `order`, refund notifications `refund`.
 */
export type OpenPayuOrderNotification = {
  order: {
    orderId: string;
    extOrderId?: string;
    orderCreateDate?: string;
    notifyUrl?: string;
    customerIp?: string;
    merchantPosId?: string;
    description?: string;
    currencyCode: string;
    /** Grosze, as a string of digits. */
    totalAmount: string;
    buyer?: Record<string, unknown>;
    products?: { name: string; unitPrice: string; quantity: string }[];
    status: string;
  };
  localReceiptDateTime?: string;
  properties?: { name: string; value: string }[];
};

export type OpenPayuRefundNotification = {
  orderId: string;
  extOrderId?: string;
  refund: { refundId: string; amount: string; currencyCode: string; status: string; statusDateTime?: string; reasonDescription?: string };
};

/** PayU's order statuses in the portal's four (WAITING_FOR_CONFIRMATION waits for the shop: still pending). */
export function portalStatusOf(payuStatus: string): PortalPaymentStatus | null {
  switch (payuStatus) {
    case 'NEW':
      return 'NEW';
    case 'PENDING':
    case 'WAITING_FOR_CONFIRMATION':
      return 'PENDING';
    case 'COMPLETED':
      return 'COMPLETED';
    case 'CANCELED':
      return 'CANCELED';
    default:
      return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isAmount = (value: unknown): value is string => typeof value === 'string' && /^\d{1,12}$/.test(value);

/** Reads a verified notification's JSON into the portal's terms; null when it is not one PayU's protocol describes. */
export function readOpenPayuNotification(body: unknown): PaymentNotification | null {
  if (!isRecord(body)) return null;
  const order = body.order;
  if (isRecord(order)) {
    const status = typeof order.status === 'string' ? portalStatusOf(order.status) : null;
    if (typeof order.orderId !== 'string' || !status || !isAmount(order.totalAmount) || typeof order.currencyCode !== 'string') return null;
    return {
      kind: 'order',
      providerOrderId: order.orderId,
      extOrderId: typeof order.extOrderId === 'string' ? order.extOrderId : '',
      status,
      amountGrosze: Number(order.totalAmount),
      currency: order.currencyCode,
    };
  }
  const refund = body.refund;
  if (isRecord(refund) && typeof body.orderId === 'string') {
    const refundStatus =
      refund.status === 'FINALIZED' || refund.status === 'CANCELED' || refund.status === 'PENDING' ? refund.status : null;
    if (!refundStatus || typeof refund.refundId !== 'string' || !isAmount(refund.amount) || typeof refund.currencyCode !== 'string')
      return null;
    return {
      kind: 'refund',
      providerOrderId: body.orderId,
      extOrderId: typeof body.extOrderId === 'string' ? body.extOrderId : null,
      refundId: refund.refundId,
      refundStatus,
      amountGrosze: Number(refund.amount),
      currency: refund.currencyCode,
    };
  }
  return { kind: 'other' };
}
