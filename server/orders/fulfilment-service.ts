import { createHash } from 'node:crypto';
import type { PaymentStatus, ProductKind, ShipmentStatus } from '../../common/types/orders';
import type { Config } from '../config';
import type { Db } from '../db';
import type { BackgroundTasks } from '../lib/background';
import type { Clock } from '../lib/clock';
import { AppError, notFound } from '../lib/errors';
import { errorForLog, type Logger } from '../lib/logger';
import type { Mailer } from '../lib/mail';
import type { SmsSender } from '../lib/sms';
import { sendShipmentNotice, type NoticeShipmentStatus } from '../notices/shipment-notice';
import { PaymentProviderError, type PaymentProvider } from '../payments/provider';
import {
  findCompletedPayment,
  recordRefund,
  refundedGrosze,
  findFulfilmentOrder,
  findPatientContact,
  listFulfilmentOrders,
  lockOrderRow,
  markOrderDone,
  updateShipment,
  type FulfilmentOrder,
} from './fulfilment-repo';
import { orderNumber } from './order-events';

export type FulfilmentDeps = {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  sms: SmsSender;
  background: BackgroundTasks;
  payments: PaymentProvider;
};

/** The shipment statuses the provider sets (DECISIONS.md 18); `not_applicable` is the portal's own. */
export const SETTABLE_SHIPMENT_STATUSES = ['awaiting', 'prepared', 'sent', 'delivered', 'collected'] as const;
type SettableShipmentStatus = (typeof SETTABLE_SHIPMENT_STATUSES)[number];

/**
 * Where a copy may go from each status. Forward only, except that a prepared copy may go back to
 * waiting (staff undo a slip); `delivered` and `collected` are the ends. Setting the status it
 * already has is always allowed (a retry, or a new tracking number of a sent copy).
 */
const NEXT: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  not_applicable: [],
  awaiting: ['prepared', 'sent', 'delivered', 'collected'],
  prepared: ['awaiting', 'sent', 'delivered', 'collected'],
  sent: ['delivered'],
  delivered: [],
  collected: [],
};

/** Copies sent to an address are sent and delivered; those picked up (in person or by the authorised person) are collected. */
const SEND_ON_ADDRESS = 1;

export type ShipmentChange = { shipmentStatus: SettableShipmentStatus; trackingNumber?: string | null; done?: boolean };
/** `requestedBy`: who asked, as the staff audit names them (`key:<id>`, `cli:<user>`). */
export type RefundRequest = { amountGrosze?: number; reason: string; requestedBy: string };
export type RefundResult = {
  order: FulfilmentOrder;
  refund: { refundId: string; status: 'PENDING' | 'FINALIZED' | 'CANCELED'; amountGrosze: number; full: boolean; currency: string };
};

export type OrderListFilter = {
  status?: PaymentStatus;
  shipment?: ShipmentStatus;
  kind?: ProductKind;
  done?: boolean;
  after?: number;
  limit?: number;
};

const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/**
 * The provider's side of orders (DECISIONS.md 18): what to fulfil, the shipment of copies as the
 * provider's systems or staff report it, and refunds through the payment provider. Used by the
 * provider API and the staff command line alike; the patient never reaches it.
 */
export function createFulfilmentService(deps: FulfilmentDeps) {
  const { db, config, clock, logger, background, payments: provider } = deps;
  const now = () => new Date(clock());

  async function order(orderId: number): Promise<FulfilmentOrder> {
    const found = await findFulfilmentOrder(db, orderId);
    if (!found) throw notFound();
    return found;
  }

  function conflict(reason: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError(409, 'CONFLICT', { reason, ...extra });
  }

  function queueNotice(after: FulfilmentOrder): void {
    const status = after.shipmentStatus as NoticeShipmentStatus;
    background.run('shipment notice', async () => {
      const contact = await findPatientContact(db, after.userId);
      if (!contact) return;
      await sendShipmentNotice(deps, {
        language: after.language,
        email: contact.email,
        phoneNumber: contact.phoneNumber,
        number: orderNumber(after.id),
        status,
        trackingNumber: after.trackingNumber,
        orderUrl: `${config.publicUrl}/order/${after.id}/status`,
      });
    });
  }

  return {
    /** Orders by id, oldest first; `nextAfter` is the `after` of the next page, null on the last. */
    async listOrders(filter: OrderListFilter = {}): Promise<{ orders: FulfilmentOrder[]; nextAfter: number | null }> {
      const limit = Math.min(filter.limit ?? DEFAULT_PAGE, MAX_PAGE);
      const orders = await listFulfilmentOrders(db, { ...filter, limit: limit + 1 });
      const page = orders.slice(0, limit);
      return { orders: page, nextAfter: orders.length > limit ? page[page.length - 1]!.id : null };
    },

    getOrder: order,

    /**
     * Sets the shipment of a copy. Only a paid (or free) copy ships; the change must be one
     * `NEXT` allows and fit how the copy goes (sent and delivered to an address, collected when
     * picked up). The same values again change nothing. A real change of status queues one
     * notice to the patient; a retry or a new tracking number alone does not.
     */
    async updateShipment(orderId: number, change: ShipmentChange): Promise<{ order: FulfilmentOrder; changed: boolean }> {
      const outcome = await db.transaction(async (trx) => {
        if (!(await lockOrderRow(trx, orderId))) throw notFound();
        const current = (await findFulfilmentOrder(trx, orderId))!;
        if (current.kind !== 'copy' || current.status !== 'COMPLETED' || current.shipmentStatus === 'not_applicable') {
          throw conflict('not_shippable', { status: current.status, kind: current.kind });
        }
        const target = change.shipmentStatus;
        if (target !== current.shipmentStatus && !NEXT[current.shipmentStatus].includes(target)) {
          throw conflict('shipment_transition', { from: current.shipmentStatus, to: target });
        }
        const byPost = current.delivery?.docReceiver === SEND_ON_ADDRESS;
        if ((target === 'sent' || target === 'delivered') && !byPost) throw conflict('not_sent_by_post', { to: target });
        if (target === 'collected' && byPost) throw conflict('sent_by_post', { to: target });
        // A tracking number belongs to a sent copy; a delivered one keeps the number it was sent with.
        const trackingNumber =
          target === 'sent'
            ? change.trackingNumber === undefined
              ? current.trackingNumber
              : change.trackingNumber
            : target === 'delivered'
              ? current.trackingNumber
              : null;
        const done = change.done ?? (target === 'delivered' || target === 'collected' ? true : current.done);
        const statusChanged = target !== current.shipmentStatus;
        if (!statusChanged && trackingNumber === current.trackingNumber && done === current.done) return { order: current, changed: false };
        await updateShipment(trx, orderId, { shipmentStatus: target, trackingNumber, done }, now());
        return { order: (await findFulfilmentOrder(trx, orderId))!, changed: statusChanged };
      });
      if (outcome.changed) {
        logger.info({ orderId, shipmentStatus: outcome.order.shipmentStatus }, 'shipment status changed');
        queueNotice(outcome.order);
      }
      return outcome;
    },

    /**
     * Returns money of a paid order through the payment provider: all of what is left by default,
     * or `amountGrosze`. The refund's id at the provider (`extRefundId`) is derived from the
     * payment, the amount and the reason, so a retried call, however it is retried, is the same
     * refund at the provider and never a second one. A refund of everything ends the order.
     */
    async refund(orderId: number, request: RefundRequest): Promise<RefundResult> {
      const current = await order(orderId);
      if (current.status !== 'COMPLETED') throw conflict('not_paid', { status: current.status });
      const payment = await findCompletedPayment(db, orderId);
      if (!payment?.providerOrderId) throw conflict('not_paid', { status: current.status });
      if (payment.provider !== provider.name) throw conflict('other_provider', { provider: payment.provider });
      const extRefundId = refundIdOf(payment.extOrderId ?? String(payment.id), request);
      const leftGrosze = payment.amountGrosze - (await refundedGrosze(db, payment.id, extRefundId));
      if (leftGrosze <= 0) throw conflict('nothing_to_refund', { paidGrosze: payment.amountGrosze });
      if (request.amountGrosze !== undefined && request.amountGrosze > leftGrosze) {
        throw conflict('refund_too_large', { paidGrosze: payment.amountGrosze, leftGrosze });
      }
      const amountGrosze = request.amountGrosze ?? leftGrosze;
      const full = amountGrosze === leftGrosze;
      let started;
      try {
        started = await provider.refund(payment.providerOrderId, {
          description: request.reason,
          // The whole payment unrefunded: PayU's full refund, with no amount.
          ...(amountGrosze !== payment.amountGrosze && { amountGrosze }),
          extRefundId,
        });
      } catch (error) {
        if (error instanceof PaymentProviderError && !error.retryable) {
          logger.warn({ orderId, provider: provider.name, err: errorForLog(error) }, 'refund refused by the payment provider');
          throw conflict('refund_refused', { providerMessage: error.message });
        }
        logger.warn({ orderId, provider: provider.name, err: errorForLog(error) }, 'refund: payment provider not reachable');
        throw new AppError(503, 'NO_CONNECTION');
      }
      await db.transaction(async (trx) => {
        await recordRefund(
          trx,
          {
            orderId,
            paymentId: payment.id,
            extRefundId,
            providerRefundId: started.refundId,
            amountGrosze,
            currency: payment.currency,
            reason: request.reason,
            status: started.status,
            requestedBy: request.requestedBy,
          },
          new Date(now()),
        );
        if (full && started.status !== 'CANCELED') await markOrderDone(trx, orderId, new Date(now()));
      });
      logger.info({ orderId, paymentId: payment.id, refundStatus: started.status, full }, 'refund requested');
      return {
        order: await order(orderId),
        refund: { ...started, amountGrosze, full, currency: payment.currency },
      };
    },
  };
}

/** PayU's extRefundId: unique per point of sale; the same request always gives the same id. */
function refundIdOf(extOrderId: string, request: RefundRequest): string {
  const digest = createHash('sha256')
    .update(`${request.amountGrosze ?? 'rest'}\n${request.reason}`)
    .digest('hex')
    .slice(0, 24);
  return `${extOrderId}-refund-${digest}`;
}
