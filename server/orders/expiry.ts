import type { JobQueue } from '../lib/job-queue';
import type { Logger } from '../lib/logger';
import { findExpiredOrderIds } from './orders-repo';
import { createPaymentService, type PaymentDeps } from './payment-service';

const ORDERS_PER_SWEEP = 100;

/**
 * DECISIONS.md 17: an unpaid order past `expires_at` is settled by asking the provider, else
 * cancelled (freeing the order button and a consultation's slot). One process at a time runs it.
 */
export function startOrderExpiry(deps: PaymentDeps & { queue: JobQueue; logger: Logger }): void {
  const payments = createPaymentService(deps);
  deps.queue.every('order-expiry', deps.config.payments.expirySweepSeconds, async () => {
    const expired = await findExpiredOrderIds(deps.db, new Date(deps.clock()), ORDERS_PER_SWEEP);
    for (const orderId of expired) await payments.expire(orderId);
    if (expired.length > 0) deps.logger.info({ expired: expired.length }, 'unpaid orders past their time settled');
  });
}
