import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Knex } from 'knex';
import type { PaymentConfirmation, PaymentRedirect, PaymentStatus } from '../../common/types/orders';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { errorForLog, type Logger } from '../lib/logger';
import type { RequestContext } from '../lib/principal';
import type { Metrics } from '../metrics/metrics';
import type { PaymentProvider } from '../payments/provider';
import { createOrderEvents, orderNumber, type OrderEventDeps } from './order-events';
import { settleRefund } from './fulfilment-repo';
import { findBuyer, findOrder, lockOrder, updateOrder, type OrderRow } from './orders-repo';
import { decideTransition, type TransitionOutcome } from './payment-transitions';
import {
  cancelOpenPayments,
  findOpenPayment,
  findPayment,
  insertOpenPayment,
  keepNotification,
  lockPayment,
  lockPaymentByProviderOrder,
  recordCheckout,
  removeUnstartedPayment,
  updatePayment,
  type PaymentRow,
} from './payments-repo';

export type PaymentDeps = OrderEventDeps & {
  clock: Clock;
  logger: Logger;
  payments: PaymentProvider;
  metrics: Pick<Metrics, 'paymentNotification'>;
};

/** How long a click on "pay" waits for a checkout another click is creating. */
const CHECKOUT_WAIT_MS = 15_000;
/** A checkout row without the provider's answer after this long was left by a dead request. */
const STALE_CHECKOUT_MS = 30_000;
const CHECKOUT_POLL_MS = 50;
/** An expired order whose provider cannot be asked waits this long before it is cancelled anyway. */
const EXPIRY_GRACE_MS = 60 * 60_000;

type Report = { status: PaymentStatus; amountGrosze: number; currency: string };
type Settled = { outcome: TransitionOutcome; order?: OrderRow; status?: PaymentStatus };

const isFinal = (status: PaymentStatus) => status === 'COMPLETED' || status === 'CANCELED';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Paying for orders through the configured provider (DECISIONS.md 12, 17): checkouts, the
 * provider's notifications, the patient's return, and unpaid orders running out. The status of a
 * payment comes only from a verified notification or from asking the provider server to server;
 * never from the browser.
 */
export function createPaymentService(deps: PaymentDeps) {
  const { db, config, clock, logger, payments: provider } = deps;
  const events = createOrderEvents(deps);
  const now = () => new Date(clock());

  /**
   * Where the patient pays for an order: its open checkout if it has one, else a new one at the
   * provider. However many clicks arrive at once, one provider order is made: the first click's
   * row takes the unique index `payments_one_open_per_order`, the others wait for its answer.
   */
  async function checkout(context: RequestContext, order: OrderRow): Promise<PaymentRedirect> {
    if (!isPayable(order)) throw new AppError(409, 'ORDER_NOT_PAYABLE');
    const deadline = Date.now() + CHECKOUT_WAIT_MS;
    while (Date.now() < deadline) {
      const open = await findOpenPayment(db, order.id);
      if (open?.redirectUri) return { redirectUri: open.redirectUri, orderId: order.id, paymentId: open.id };
      if (open && clock() - open.createdAt.getTime() > STALE_CHECKOUT_MS) {
        await removeUnstartedPayment(db, open.id);
        continue;
      }
      if (!open) {
        const extOrderId = randomUUID();
        const paymentId = await insertOpenPayment(db, {
          orderId: order.id,
          provider: provider.name,
          extOrderId,
          amountGrosze: order.priceGrosze,
          currency: order.currency,
          now: now(),
        });
        if (paymentId !== undefined) return startCheckout(context, order, paymentId, extOrderId);
      }
      await sleep(CHECKOUT_POLL_MS);
    }
    throw new AppError(503, 'NO_CONNECTION');
  }

  function isPayable(order: OrderRow): boolean {
    const unpaid = order.status === 'NEW' || order.status === 'PENDING';
    return unpaid && order.priceGrosze > 0 && (order.expiresAt === null || order.expiresAt > now());
  }

  async function startCheckout(context: RequestContext, order: OrderRow, paymentId: number, extOrderId: string): Promise<PaymentRedirect> {
    const buyer = await findBuyer(db, order.userId);
    const product = order.productName[order.language];
    const continueUrl =
      order.productKind === 'copy'
        ? `${config.publicUrl}/payment?paymentId=${paymentId}&screeningId=${order.screeningId}`
        : `${config.publicUrl}/order/${order.id}/status`;
    let started;
    try {
      started = await provider.createCheckout({
        extOrderId,
        description: `${product}, ${orderNumber(order.id)}`,
        amountGrosze: order.priceGrosze,
        currency: order.currency,
        customerIp: customerIp(context.ip),
        language: order.language,
        buyer,
        products: [{ name: product, unitPriceGrosze: order.priceGrosze, quantity: 1 }],
        notifyUrl: `${config.publicUrl}/api/payments/notify/${provider.name}`,
        continueUrl,
      });
    } catch (error) {
      // Nothing exists at the provider: the row goes, and the next click starts afresh.
      await removeUnstartedPayment(db, paymentId);
      logger.warn({ orderId: order.id, provider: provider.name, err: errorForLog(error) }, 'checkout could not be started');
      throw new AppError(503, 'NO_CONNECTION');
    }
    await recordCheckout(db, paymentId, started, now());
    await events.record(order, { type: 'PAYMENT', ip: context.ip });
    return { redirectUri: started.redirectUri, orderId: order.id, paymentId };
  }

  /** Applies a verified report to a locked payment and its order, inside the caller's transaction. */
  async function applyReport(trx: Knex.Transaction, payment: PaymentRow, report: Report): Promise<Settled> {
    const outcome = decideTransition(payment, report);
    if (outcome === 'amount_mismatch' || outcome === 'paid_after_cancel') await updatePayment(trx, payment.id, { flag: outcome }, now());
    if (outcome !== 'applied') return { outcome };
    await updatePayment(trx, payment.id, { status: report.status }, now());
    const order = await lockOrder(trx, payment.orderId);
    if (!order) return { outcome };
    if (report.status === 'PENDING' && order.status === 'NEW') await updateOrder(trx, order.id, { status: 'PENDING' }, now());
    if (report.status === 'COMPLETED') {
      // A paid copy waits for the provider to prepare it (DECISIONS.md 18).
      const shipmentStatus = order.productKind === 'copy' ? 'awaiting' : order.shipmentStatus;
      await updateOrder(trx, order.id, { status: 'COMPLETED', expiresAt: null, shipmentStatus }, now());
    }
    if (report.status === 'CANCELED') await updateOrder(trx, order.id, { status: 'CANCELED', done: true, expiresAt: null }, now());
    return { outcome, order, status: report.status };
  }

  /** After the transaction: her audit entry and mail for a payment that ended. */
  async function announce(settled: Settled): Promise<void> {
    if (settled.outcome !== 'applied' || !settled.order) return;
    if (settled.status === 'COMPLETED') await events.record(settled.order, { type: 'PAYMENT_COMPLETED', ip: undefined }, 'paid');
    if (settled.status === 'CANCELED') await events.record(settled.order, { type: 'PAYMENT_CANCELED', ip: undefined }, 'cancelled');
  }

  /** A report the portal asked the provider for itself (server to server). */
  async function settleFromProvider(payment: PaymentRow): Promise<void> {
    if (isFinal(payment.status) || !payment.providerOrderId) return;
    const remote = await provider.retrieveOrder(payment.providerOrderId);
    const settled = await db.transaction(async (trx) => {
      const locked = await lockPayment(trx, payment.id);
      return locked ? applyReport(trx, locked, remote) : { outcome: 'stale' as const };
    });
    if (settled.outcome === 'applied') logger.info({ paymentId: payment.id, status: settled.status }, 'payment settled by retrieval');
    await announce(settled);
  }

  /** Asks the provider when the payment is still open; an unreachable provider leaves it as it is. */
  async function refresh(payment: PaymentRow | undefined): Promise<void> {
    if (!payment) return;
    await settleFromProvider(payment).catch((error: unknown) =>
      logger.warn({ paymentId: payment.id, err: errorForLog(error) }, 'payment status could not be retrieved'),
    );
  }

  /**
   * A server-to-server notification. Every one is kept as received. A forged or unsigned one is
   * refused (401) and logged; a verified one moves the payment forward only (a replay or an older
   * status changes nothing); an amount or currency that is not the order's is flagged and never
   * completes; an unknown order is answered 200 (so the provider stops retrying) and logged.
   */
  async function receiveNotification(providerName: string, rawBody: Buffer, headers: IncomingHttpHeaders): Promise<number> {
    if (providerName !== provider.name) throw new AppError(404, 'NOT_FOUND');
    const receivedAt = now();
    const body = readBody(rawBody);
    const check = provider.checkNotification(rawBody, headers);
    const kept = { provider: provider.name, signatureValid: check.verified, body, receivedAt };
    if (!check.verified) {
      await keepNotification(db, { ...kept, paymentId: null, providerOrderId: null, outcome: `refused_${check.reason}` });
      logger.warn({ provider: provider.name, reason: check.reason }, 'payment notification refused');
      deps.metrics.paymentNotification(`refused_${check.reason}`);
      return 401;
    }
    const notification = check.notification;
    if (notification.kind === 'refund' && notification.refundStatus !== 'PENDING') {
      await settleRefund(db, notification.refundId, notification.refundStatus, receivedAt);
    }
    if (notification.kind !== 'order') {
      const outcome = notification.kind === 'refund' ? `refund_${notification.refundStatus.toLowerCase()}` : 'ignored';
      const providerOrderId = notification.kind === 'refund' ? notification.providerOrderId : null;
      await keepNotification(db, { ...kept, paymentId: null, providerOrderId, outcome });
      logger.info({ provider: provider.name, outcome }, 'payment notification kept');
      deps.metrics.paymentNotification(outcome);
      return 200;
    }
    const settled = await db.transaction(async (trx) => {
      const payment = await lockPaymentByProviderOrder(trx, provider.name, notification.providerOrderId);
      const result: Settled | { outcome: 'unknown_order' } = payment
        ? await applyReport(trx, payment, notification)
        : { outcome: 'unknown_order' };
      await keepNotification(trx, {
        ...kept,
        paymentId: payment?.id ?? null,
        providerOrderId: notification.providerOrderId,
        outcome: result.outcome,
      });
      return result;
    });
    const level = settled.outcome === 'applied' || settled.outcome === 'replay' || settled.outcome === 'stale' ? 'info' : 'warn';
    logger[level]({ provider: provider.name, outcome: settled.outcome, status: notification.status }, 'payment notification');
    deps.metrics.paymentNotification(settled.outcome);
    if (settled.outcome !== 'unknown_order') await announce(settled);
    return 200;
  }

  /**
   * Ends an unpaid order (she cancelled it, or its time ran out): the order becomes CANCELED and
   * done, its open checkouts cancelled, and a consultation's slot is free again (the index
   * `orders_slot_taken` counts only orders that are not cancelled). Undefined when it was no
   * longer unpaid.
   */
  async function cancelUnpaid(orderId: number, reason: 'cancelled' | 'expired', ip: string | undefined): Promise<OrderRow | undefined> {
    const order = await db.transaction(async (trx) => {
      const locked = await lockOrder(trx, orderId);
      if (!locked || (locked.status !== 'NEW' && locked.status !== 'PENDING')) return undefined;
      await updateOrder(trx, orderId, { status: 'CANCELED', done: true, expiresAt: null }, now());
      await cancelOpenPayments(trx, orderId, now());
      return locked;
    });
    if (order) {
      const type = reason === 'expired' ? 'PAYMENT_CANCELED' : 'ORDER_CANCEL';
      await events.record(order, { type, ip, description: `${orderNumber(order.id)}, ${order.productCode}, ${reason}` }, reason);
    }
    return order;
  }

  /**
   * An order past its time: the provider is asked first, since money may have arrived while its
   * notification is still on the way; only an order the provider does not call paid is cancelled.
   */
  async function expire(orderId: number): Promise<void> {
    const order = await findOrder(db, orderId);
    if (!order || isFinal(order.status)) return;
    const open = await findOpenPayment(db, orderId);
    if (open?.providerOrderId) {
      try {
        await settleFromProvider(open);
        const after = await findOrder(db, orderId);
        if (after && isFinal(after.status)) return;
      } catch (error) {
        const overdue = order.expiresAt !== null && clock() - order.expiresAt.getTime() > EXPIRY_GRACE_MS;
        logger.warn({ orderId, err: errorForLog(error), cancelAnyway: overdue }, 'expiring order: provider not reachable');
        if (!overdue) return;
      }
    }
    await cancelUnpaid(orderId, 'expired', undefined);
  }

  /** `POST /screening/order-copy/payment-confirm/{screeningId}?paymentId`: the verified status, asked of the provider when still open. */
  async function confirm(order: OrderRow, paymentId: number): Promise<PaymentConfirmation> {
    await refresh(await findPayment(db, paymentId));
    const payment = await findPayment(db, paymentId);
    return { status: payment?.status ?? order.status, orderId: order.id, screeningId: order.screeningId };
  }

  return { checkout, isPayable, refresh, receiveNotification, cancelUnpaid, expire, confirm };
}

/** The body as kept: its JSON, or its text when it is not JSON (a forged post is evidence too). */
function readBody(rawBody: Buffer): unknown {
  const text = rawBody.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return { unparsed: text.slice(0, 10_000) };
  }
}

/** PayU wants the buyer's IPv4 or IPv6 address; Node reports IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d. */
function customerIp(ip: string | undefined): string {
  if (!ip) return '127.0.0.1';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
