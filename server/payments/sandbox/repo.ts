import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { PortalPaymentStatus } from '../provider';

/** A checkout as the sandbox provider keeps it on its side. */
export type SandboxCheckout = {
  id: string;
  extOrderId: string;
  status: PortalPaymentStatus;
  amountGrosze: number;
  currency: string;
  description: string;
  language: 'pl' | 'en';
  customerIp: string;
  notifyUrl: string;
  continueUrl: string;
  createdAt: Date;
};

const COLUMNS = {
  id: 'id',
  extOrderId: 'ext_order_id',
  status: 'status',
  amountGrosze: 'amount_grosze',
  currency: 'currency',
  description: 'description',
  language: 'language',
  customerIp: 'customer_ip',
  notifyUrl: 'notify_url',
  continueUrl: 'continue_url',
  createdAt: 'created_at',
};

export async function insertCheckout(db: Db, checkout: Omit<SandboxCheckout, 'id' | 'status' | 'createdAt'>): Promise<string> {
  const [row] = await db('sandbox_checkouts')
    .insert({
      ext_order_id: checkout.extOrderId,
      amount_grosze: checkout.amountGrosze,
      currency: checkout.currency,
      description: checkout.description,
      language: checkout.language,
      customer_ip: checkout.customerIp,
      notify_url: checkout.notifyUrl,
      continue_url: checkout.continueUrl,
    })
    .returning('id');
  return row.id;
}

export async function findCheckout(db: Db, id: string): Promise<SandboxCheckout | undefined> {
  return db('sandbox_checkouts').where({ id }).first(COLUMNS);
}

/**
 * The buyer's choice on the sandbox page. Like a real provider's order, a checkout moves on from
 * NEW or PENDING only; a paid or cancelled one stays as it is. Answers whether it changed.
 */
export async function decideCheckout(db: Db, id: string, status: PortalPaymentStatus, now: Date): Promise<boolean> {
  const changed = await db('sandbox_checkouts')
    .where({ id })
    .whereIn('status', ['NEW', 'PENDING'])
    .whereNot({ status })
    .update({ status, updated_at: now });
  return changed > 0;
}

type DbOrTransaction = Db | Knex.Transaction;

/** Locks the checkout for a refund: two refunds at once must not both find the same money left. */
export async function lockCheckout(trx: Knex.Transaction, id: string): Promise<SandboxCheckout | undefined> {
  return trx('sandbox_checkouts').where({ id }).forUpdate().first(COLUMNS);
}

export async function insertRefund(
  db: DbOrTransaction,
  refund: { checkoutId: string; amountGrosze: number; description: string; extRefundId: string | null },
): Promise<string> {
  const [row] = await db('sandbox_refunds')
    .insert({
      checkout_id: refund.checkoutId,
      amount_grosze: refund.amountGrosze,
      description: refund.description,
      ext_refund_id: refund.extRefundId,
    })
    .returning('id');
  return row.id;
}

/** The refund a shop already asked for under this extRefundId (PayU's idempotency key). */
export async function findRefundByExtId(
  db: DbOrTransaction,
  checkoutId: string,
  extRefundId: string,
): Promise<{ id: string; amountGrosze: number } | undefined> {
  return db('sandbox_refunds')
    .where({ checkout_id: checkoutId, ext_refund_id: extRefundId })
    .first({ id: 'id', amountGrosze: 'amount_grosze' });
}

export async function refundedGrosze(db: DbOrTransaction, checkoutId: string): Promise<number> {
  const row = await db('sandbox_refunds').where({ checkout_id: checkoutId }).sum({ total: 'amount_grosze' }).first();
  return Number(row?.total ?? 0);
}

export async function findRefund(
  db: Db,
  id: string,
): Promise<{ id: string; checkoutId: string; amountGrosze: number; status: string; createdAt: Date } | undefined> {
  return db('sandbox_refunds')
    .where({ id })
    .first({ id: 'id', checkoutId: 'checkout_id', amountGrosze: 'amount_grosze', status: 'status', createdAt: 'created_at' });
}
