import type { Knex } from 'knex';
import type { PaymentStatus } from '../../common/types/orders';
import type { Db } from '../db';

type DbOrTransaction = Db | Knex.Transaction;

export type PaymentRow = {
  id: number;
  orderId: number;
  provider: string;
  providerOrderId: string | null;
  extOrderId: string | null;
  status: PaymentStatus;
  amountGrosze: number;
  currency: string;
  redirectUri: string | null;
  flag: string | null;
  createdAt: Date;
};

export const PAYMENT_COLUMNS = {
  id: 'id',
  orderId: 'order_id',
  provider: 'provider',
  providerOrderId: 'provider_order_id',
  extOrderId: 'ext_order_id',
  status: 'status',
  amountGrosze: 'amount_grosze',
  currency: 'currency',
  redirectUri: 'redirect_uri',
  flag: 'flag',
  createdAt: 'created_at',
};

export const paymentOf = (row: PaymentRow): PaymentRow => ({ ...row, currency: row.currency.trim() });

export async function findOpenPayment(db: DbOrTransaction, orderId: number): Promise<PaymentRow | undefined> {
  const row: PaymentRow | undefined = await db('payments')
    .where({ order_id: orderId })
    .whereIn('status', ['NEW', 'PENDING'])
    .first(PAYMENT_COLUMNS);
  return row && paymentOf(row);
}

export async function findLatestPayment(db: DbOrTransaction, orderId: number): Promise<PaymentRow | undefined> {
  const row: PaymentRow | undefined = await db('payments').where({ order_id: orderId }).orderBy('id', 'desc').first(PAYMENT_COLUMNS);
  return row && paymentOf(row);
}

export async function findPayment(db: DbOrTransaction, id: number): Promise<PaymentRow | undefined> {
  const row: PaymentRow | undefined = await db('payments').where({ id }).first(PAYMENT_COLUMNS);
  return row && paymentOf(row);
}

/** The payment a notification names, locked: notifications of one payment are applied one at a time. */
export async function lockPaymentByProviderOrder(
  trx: Knex.Transaction,
  provider: string,
  providerOrderId: string,
): Promise<PaymentRow | undefined> {
  const row: PaymentRow | undefined = await trx('payments')
    .where({ provider, provider_order_id: providerOrderId })
    .forUpdate()
    .first(PAYMENT_COLUMNS);
  return row && paymentOf(row);
}

export async function lockPayment(trx: Knex.Transaction, id: number): Promise<PaymentRow | undefined> {
  const row: PaymentRow | undefined = await trx('payments').where({ id }).forUpdate().first(PAYMENT_COLUMNS);
  return row && paymentOf(row);
}

/**
 * A new checkout attempt, or undefined when the order already has an open one: the unique index
 * `payments_one_open_per_order` lets only one of many parallel clicks through.
 */
export async function insertOpenPayment(
  db: DbOrTransaction,
  payment: { orderId: number; provider: string; extOrderId: string; amountGrosze: number; currency: string; now: Date },
): Promise<number | undefined> {
  const rows: { id: number }[] = await db('payments')
    .insert({
      order_id: payment.orderId,
      provider: payment.provider,
      ext_order_id: payment.extOrderId,
      status: 'NEW',
      amount_grosze: payment.amountGrosze,
      currency: payment.currency,
      created_at: payment.now,
      updated_at: payment.now,
    })
    .onConflict(db.raw("(order_id) WHERE status IN ('NEW', 'PENDING')"))
    .ignore()
    .returning('id');
  return rows[0]?.id;
}

export async function recordCheckout(
  db: DbOrTransaction,
  id: number,
  checkout: { providerOrderId: string; redirectUri: string },
  now: Date,
): Promise<void> {
  await db('payments')
    .where({ id })
    .update({ provider_order_id: checkout.providerOrderId, redirect_uri: checkout.redirectUri, updated_at: now });
}

/** A checkout the provider never took (it failed or its process died): nothing refers to it yet. */
export async function removeUnstartedPayment(db: DbOrTransaction, id: number): Promise<void> {
  await db('payments').where({ id }).whereNull('provider_order_id').delete();
}

export async function updatePayment(
  trx: DbOrTransaction,
  id: number,
  changes: Partial<{ status: PaymentStatus; flag: string }>,
  now: Date,
): Promise<void> {
  await trx('payments')
    .where({ id })
    .update({ ...changes, updated_at: now });
}

export async function cancelOpenPayments(trx: DbOrTransaction, orderId: number, now: Date): Promise<void> {
  await trx('payments').where({ order_id: orderId }).whereIn('status', ['NEW', 'PENDING']).update({ status: 'CANCELED', updated_at: now });
}

/** Every notification is kept as received (DECISIONS.md 12), with what came of it. */
export async function keepNotification(
  db: DbOrTransaction,
  notification: {
    provider: string;
    paymentId: number | null;
    providerOrderId: string | null;
    signatureValid: boolean;
    body: unknown;
    outcome: string;
    receivedAt: Date;
  },
): Promise<void> {
  await db('payment_notifications').insert({
    provider: notification.provider,
    payment_id: notification.paymentId,
    provider_order_id: notification.providerOrderId,
    signature_valid: notification.signatureValid,
    body: JSON.stringify(notification.body),
    outcome: notification.outcome,
    received_at: notification.receivedAt,
  });
}
