import type { PaymentStatus, ShipmentStatus } from '@common/types/screenings';
import type { MessageKey } from './intl';

/**
 * The words for an order's payment and shipment status, the same wherever an order is shown (the
 * screenings list, the order status page). Written out key by key: the catalog test finds used
 * keys by their literal text.
 */
export const PAYMENT_STATUS_LABELS: Readonly<Record<PaymentStatus, MessageKey>> = {
  NEW: 'screenings.payment.NEW',
  PENDING: 'screenings.payment.PENDING',
  COMPLETED: 'screenings.payment.COMPLETED',
  CANCELED: 'screenings.payment.CANCELED',
};

export const SHIPMENT_STATUS_LABELS: Readonly<Record<ShipmentStatus, MessageKey>> = {
  not_applicable: 'screenings.shipment.not_applicable',
  awaiting: 'screenings.shipment.awaiting',
  prepared: 'screenings.shipment.prepared',
  sent: 'screenings.shipment.sent',
  delivered: 'screenings.shipment.delivered',
  collected: 'screenings.shipment.collected',
};
