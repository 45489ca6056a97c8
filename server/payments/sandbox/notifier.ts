import type { Db } from '../../db';
import type { JobQueue } from '../../lib/job-queue';
import { errorForLog, type Logger } from '../../lib/logger';
import type { OpenPayuOrderNotification, OpenPayuRefundNotification } from '../openpayu-notification';
import { signOpenPayu } from '../openpayu-signature';
import { findCheckout, findRefund } from './repo';

const NOTIFY_QUEUE = 'payment-sandbox-notify';
/**
 * Like PayU, the sandbox keeps sending until the shop answers 200: with growing waits (1 s, 2 s,
 * 4 s ... about 68 minutes in all over 12 retries), after which the notification is given up and
 * the order expiry's server-side retrieval is what settles the order.
 */
const RETRY_LIMIT = 12;
const RETRY_DELAY_SECONDS = 1;
const REQUEST_TIMEOUT_MS = 10_000;
/** The sandbox's merchant: a fixed, recognisable fake point of sale. */
const SANDBOX_POS_ID = 'sandbox-pos';

type NotifyJob = { checkoutId: string; refundId?: string };

export type SandboxNotifier = { notify(job: NotifyJob): Promise<void> };

/**
 * The sandbox's server-to-server notifications: each change of a checkout (or a refund) is a job
 * on the portal's queue, so it survives a restart and any process may send it. The body is the
 * checkout's state when sent, in PayU's shape, signed like PayU signs with the second key.
 */
export function startSandboxNotifier(deps: { db: Db; queue: JobQueue; logger: Logger; secondKey: string }): SandboxNotifier {
  const { db, queue, logger, secondKey } = deps;
  const ready = queue.prepare(async (boss) => {
    await boss.createQueue(NOTIFY_QUEUE, {
      name: NOTIFY_QUEUE,
      retryLimit: RETRY_LIMIT,
      retryDelay: RETRY_DELAY_SECONDS,
      retryBackoff: true,
    });
    await boss.work<NotifyJob>(NOTIFY_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([job]) => {
      if (job) await deliver(job.data);
    });
    return boss;
  });
  ready.catch((error: unknown) => logger.error({ err: errorForLog(error) }, 'payment sandbox notifier did not start'));

  async function deliver(job: NotifyJob): Promise<void> {
    const checkout = await findCheckout(db, job.checkoutId);
    if (!checkout) return;
    const body = job.refundId ? await refundBody(job.refundId, checkout) : orderBody(checkout);
    if (!body) return;
    const raw = JSON.stringify(body);
    const response = await fetch(checkout.notifyUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'OpenPayu-Signature': signOpenPayu(raw, secondKey) },
      body: raw,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.body?.cancel();
    // Anything but 200 is "not received" for PayU; throwing lets the queue retry later.
    if (response.status !== 200) throw new Error(`notification answered ${response.status}`);
  }

  async function refundBody(refundId: string, checkout: { id: string; extOrderId: string; currency: string }) {
    const refund = await findRefund(db, refundId);
    if (!refund) return null;
    const notification: OpenPayuRefundNotification = {
      orderId: checkout.id,
      extOrderId: checkout.extOrderId,
      refund: {
        refundId: refund.id,
        amount: String(refund.amountGrosze),
        currencyCode: checkout.currency,
        status: refund.status,
        statusDateTime: refund.createdAt.toISOString(),
      },
    };
    return notification;
  }

  return {
    async notify(job) {
      const boss = await ready;
      await boss.send(NOTIFY_QUEUE, job);
    },
  };
}

function orderBody(checkout: NonNullable<Awaited<ReturnType<typeof findCheckout>>>): OpenPayuOrderNotification {
  return {
    order: {
      orderId: checkout.id,
      extOrderId: checkout.extOrderId,
      orderCreateDate: checkout.createdAt.toISOString(),
      notifyUrl: checkout.notifyUrl,
      customerIp: checkout.customerIp,
      merchantPosId: SANDBOX_POS_ID,
      description: checkout.description,
      currencyCode: checkout.currency,
      totalAmount: String(checkout.amountGrosze),
      status: checkout.status,
    },
    localReceiptDateTime: new Date().toISOString(),
    properties: [{ name: 'PAYMENT_ID', value: checkout.id }],
  };
}
