import type { Knex } from 'knex';
import type { PaymentStatus, ProductKind, ShipmentStatus } from '../../common/types/orders';
import type { Db } from '../db';
import { PAYMENT_COLUMNS, paymentOf, type PaymentRow } from './payments-repo';

type DbOrTransaction = Db | Knex.Transaction;

/** What the provider's systems see of an order: to fulfil it, including where a copy goes. */
export type FulfilmentOrder = {
  id: number;
  userId: number;
  screeningId: number;
  screeningExternalId: string | null;
  patientExternalId: string | null;
  kind: ProductKind;
  productCode: string;
  status: PaymentStatus;
  shipmentStatus: ShipmentStatus;
  trackingNumber: string | null;
  done: boolean;
  language: 'pl' | 'en';
  createdAt: Date;
  updatedAt: Date;
  priceGrosze: number;
  currency: string;
  documentId: string | null;
  consultationSlotId: number | null;
  delivery: CopyDelivery | null;
};

type CopyDelivery = {
  docReceiver: 0 | 1 | 2;
  requestTypes: string[];
  requestDigitalImage: boolean;
  recipient: { firstName: string; lastName: string };
  email: string | null;
  address: {
    province: string;
    city: string;
    postalCode: string;
    street: string;
    houseNumber: string;
    apartmentNumber: string | null;
  } | null;
  privilegedPerson: { name: string; id: string } | null;
};

const COLUMNS = {
  id: 'o.id',
  userId: 'o.user_id',
  screeningId: 'o.screening_id',
  screeningExternalId: 's.external_id',
  patientExternalId: 'pd.external_id',
  kind: 'p.kind',
  productCode: 'p.code',
  status: 'o.status',
  shipmentStatus: 'o.shipment_status',
  trackingNumber: 'o.tracking_number',
  done: 'o.done',
  language: 'o.language',
  createdAt: 'o.created_at',
  updatedAt: 'o.updated_at',
  priceGrosze: 'o.price_grosze',
  currency: 'o.currency',
  documentId: 'o.document_id',
  consultationSlotId: 'o.consultation_slot_id',
  detailsOrderId: 'c.order_id',
  docReceiver: 'c.doc_receiver',
  requestTypes: 'c.request_types',
  requestDigitalImage: 'c.request_digital_image',
  firstName: 'pd.first_name',
  lastName: 'pd.last_name',
  email: 'c.email',
  province: 'pr.name',
  city: 'ci.name',
  postalCode: 'c.postal_code',
  street: 'c.street',
  houseNumber: 'c.house_number',
  apartmentNumber: 'c.apartment_number',
  privilegedName: 'c.privileged_person_name',
  privilegedId: 'c.privileged_person_id',
};

type Raw = Omit<FulfilmentOrder, 'delivery'> & {
  detailsOrderId: number | null;
  docReceiver: 0 | 1 | 2 | null;
  requestTypes: string[] | null;
  requestDigitalImage: boolean | null;
  firstName: string;
  lastName: string;
  email: string | null;
  province: string | null;
  city: string | null;
  postalCode: string | null;
  street: string | null;
  houseNumber: string | null;
  apartmentNumber: string | null;
  privilegedName: string | null;
  privilegedId: string | null;
};

function select(db: DbOrTransaction) {
  return db('orders as o')
    .join('products as p', 'p.id', 'o.product_id')
    .join('screenings as s', 's.id', 'o.screening_id')
    .join('users as u', 'u.id', 'o.user_id')
    .join('personal_data as pd', 'pd.id', 'u.personal_data_id')
    .leftJoin('copy_order_details as c', 'c.order_id', 'o.id')
    .leftJoin('provinces as pr', 'pr.id', 'c.province_id')
    .leftJoin('cities as ci', 'ci.id', 'c.city_id')
    .select(COLUMNS);
}

function orderOf(row: Raw): FulfilmentOrder {
  const delivery: CopyDelivery | null =
    row.detailsOrderId !== null
      ? {
          docReceiver: row.docReceiver!,
          requestTypes: row.requestTypes ?? [],
          requestDigitalImage: row.requestDigitalImage ?? false,
          recipient: { firstName: row.firstName, lastName: row.lastName },
          email: row.email,
          address:
            row.postalCode !== null && row.street !== null && row.houseNumber !== null
              ? {
                  province: row.province ?? '',
                  city: row.city ?? '',
                  postalCode: row.postalCode,
                  street: row.street,
                  houseNumber: row.houseNumber,
                  apartmentNumber: row.apartmentNumber || null,
                }
              : null,
          privilegedPerson:
            row.privilegedName !== null && row.privilegedId !== null ? { name: row.privilegedName, id: row.privilegedId } : null,
        }
      : null;
  return {
    id: row.id,
    userId: row.userId,
    screeningId: row.screeningId,
    screeningExternalId: row.screeningExternalId,
    patientExternalId: row.patientExternalId,
    kind: row.kind,
    productCode: row.productCode,
    status: row.status,
    shipmentStatus: row.shipmentStatus,
    trackingNumber: row.trackingNumber,
    done: row.done,
    language: row.language.trim() as 'pl' | 'en',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    priceGrosze: row.priceGrosze,
    currency: row.currency.trim(),
    documentId: row.documentId,
    consultationSlotId: row.consultationSlotId,
    delivery,
  };
}

export type FulfilmentFilter = {
  status?: PaymentStatus;
  shipment?: ShipmentStatus;
  kind?: ProductKind;
  done?: boolean;
  /** Orders with a greater id than this (the previous page's last). */
  after?: number;
  limit: number;
};

/** Orders by id, oldest first, filtered; the provider pages with `after`. */
export async function listFulfilmentOrders(db: Db, filter: FulfilmentFilter): Promise<FulfilmentOrder[]> {
  const query = select(db).orderBy('o.id').limit(filter.limit);
  if (filter.status) query.where('o.status', filter.status);
  if (filter.shipment) query.where('o.shipment_status', filter.shipment);
  if (filter.kind) query.where('p.kind', filter.kind);
  if (filter.done !== undefined) query.where('o.done', filter.done);
  if (filter.after !== undefined) query.where('o.id', '>', filter.after);
  const rows: Raw[] = await query;
  return rows.map(orderOf);
}

export async function findFulfilmentOrder(db: DbOrTransaction, id: number): Promise<FulfilmentOrder | undefined> {
  const row: Raw | undefined = await select(db).where('o.id', id).first();
  return row && orderOf(row);
}

/** Locks the order's row for the rest of the transaction (shipment changes and refunds take turns). */
export async function lockOrderRow(trx: Knex.Transaction, id: number): Promise<boolean> {
  return (await trx('orders').where({ id }).forUpdate().first('id')) !== undefined;
}

export async function updateShipment(
  trx: DbOrTransaction,
  id: number,
  changes: { shipmentStatus: ShipmentStatus; trackingNumber: string | null; done: boolean },
  now: Date,
): Promise<void> {
  await trx('orders').where({ id }).update({
    shipment_status: changes.shipmentStatus,
    tracking_number: changes.trackingNumber,
    done: changes.done,
    updated_at: now,
  });
}

export async function markOrderDone(trx: DbOrTransaction, id: number, now: Date): Promise<void> {
  await trx('orders').where({ id, done: false }).update({ done: true, expires_at: null, updated_at: now });
}

/** The order's completed payment (the money a refund returns), the latest first. */
export async function findCompletedPayment(db: DbOrTransaction, orderId: number): Promise<PaymentRow | undefined> {
  const row: PaymentRow | undefined = await db('payments')
    .where({ order_id: orderId, status: 'COMPLETED' })
    .whereNotNull('provider_order_id')
    .orderBy('id', 'desc')
    .first(PAYMENT_COLUMNS);
  return row && paymentOf(row);
}

/** Where a notice to the patient goes: her account's e-mail and, when known, her phone. */
export async function findPatientContact(db: Db, userId: number): Promise<{ email: string; phoneNumber: string | null } | undefined> {
  return db('users as u')
    .join('personal_data as pd', 'pd.id', 'u.personal_data_id')
    .where('u.id', userId)
    .first({ email: 'u.email', phoneNumber: 'pd.phone_number' });
}

export type RefundRecord = {
  orderId: number;
  paymentId: number;
  extRefundId: string;
  providerRefundId: string;
  amountGrosze: number;
  currency: string;
  reason: string;
  status: 'PENDING' | 'FINALIZED' | 'CANCELED';
  requestedBy: string;
};

/** Grosze of a payment already returned or on their way back, leaving out one refund (the one being retried). */
export async function refundedGrosze(db: DbOrTransaction, paymentId: number, exceptExtRefundId: string): Promise<number> {
  const [row] = await db('order_refunds')
    .where({ payment_id: paymentId })
    .whereNot({ status: 'CANCELED' })
    .whereNot({ ext_refund_id: exceptExtRefundId })
    .sum({ total: 'amount_grosze' });
  return Number(row?.total ?? 0);
}

/** Keeps a refund as the provider took it; a retried one updates its row (found by the portal's refund id). */
export async function recordRefund(db: DbOrTransaction, refund: RefundRecord, now: Date): Promise<void> {
  await db('order_refunds')
    .insert({
      order_id: refund.orderId,
      payment_id: refund.paymentId,
      ext_refund_id: refund.extRefundId,
      provider_refund_id: refund.providerRefundId,
      amount_grosze: refund.amountGrosze,
      currency: refund.currency,
      reason: refund.reason,
      status: refund.status,
      requested_by: refund.requestedBy,
      created_at: now,
      updated_at: now,
    })
    .onConflict('ext_refund_id')
    .merge({ provider_refund_id: refund.providerRefundId, status: refund.status, updated_at: now });
}

/** A refund's end as the provider's notification reports it; only a pending refund moves, so a replay or an older report changes nothing. */
export async function settleRefund(
  db: DbOrTransaction,
  providerRefundId: string,
  status: 'FINALIZED' | 'CANCELED',
  now: Date,
): Promise<boolean> {
  const updated = await db('order_refunds')
    .where({ provider_refund_id: providerRefundId, status: 'PENDING' })
    .update({ status, updated_at: now });
  return updated > 0;
}
