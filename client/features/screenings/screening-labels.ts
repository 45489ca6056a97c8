import type { PaymentStatus, ShipmentStatus } from '@common/types/screenings';
import type { MessageKey } from '../../lib/intl';
import { resultWordingKey } from '../../lib/screening-result';
import type { ResultChoice } from './screening-filters';

/** Written out key by key: the catalog test finds used keys by their literal text. */
export const PAYMENT_LABELS: Readonly<Record<PaymentStatus, MessageKey>> = {
  NEW: 'screenings.payment.NEW',
  PENDING: 'screenings.payment.PENDING',
  COMPLETED: 'screenings.payment.COMPLETED',
  CANCELED: 'screenings.payment.CANCELED',
};

export const SHIPMENT_LABELS: Readonly<Record<ShipmentStatus, MessageKey>> = {
  not_applicable: 'screenings.shipment.not_applicable',
  awaiting: 'screenings.shipment.awaiting',
  prepared: 'screenings.shipment.prepared',
  sent: 'screenings.shipment.sent',
  delivered: 'screenings.shipment.delivered',
  collected: 'screenings.shipment.collected',
};

/** The result filter reads like the result column: the scale's wording, or "no result yet". */
export function resultChoiceLabel(choice: ResultChoice): MessageKey {
  return (choice === 'none' ? null : resultWordingKey(Number(choice))) ?? 'screenings.filters.resultNone';
}
