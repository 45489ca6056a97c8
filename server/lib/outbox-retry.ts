import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from './clock';
import type { JobQueue } from './job-queue';
import { errorForLog, type Logger } from './logger';
import { deliveryErrorForLog, smtpDeliveryFrom, type SmtpDelivery } from './mail';
import { claimDueRetries, recordRetryOutcome, type KeptMessage } from './outbox-repo';
import { adapterFromConfig, SmsProviderError, type SmsAdapter } from './sms';

/**
 * When the attempt after attempt n is due, counted from the message's creation: a provider that
 * is down for minutes loses nothing, one down for a day stops being asked. After the last wait
 * the message is given up: it stays in the outbox, unsent, with its last error for the operator.
 */
const RETRY_AFTER_MINUTES = [1, 5, 15, 60, 4 * 60, 12 * 60] as const;
export const MAX_ATTEMPTS = RETRY_AFTER_MINUTES.length + 1;
const RETRY_SWEEP_SECONDS = 60;
/**
 * Messages per sweep: a long outage ends with a backlog, sent a batch a minute. Small enough that
 * a sweep against a provider that times out (50 s per mail at worst) ends within the job's time.
 */
const BATCH_SIZE = 20;

export type OutboxDelivery = { email: SmtpDelivery | null; sms: SmsAdapter | null };

/**
 * Sends again the messages whose delivery failed and whose next attempt is due, on the channels a
 * provider is configured for. Messages never tried (kept while no provider was configured) are not
 * touched: the outbox was their destination (DECISIONS.md 13). Logs ids and codes only, never a
 * recipient or a body.
 */
export async function retryOutboxMessages(deps: {
  db: Db;
  logger: Logger;
  now: Date;
  delivery: OutboxDelivery;
}): Promise<{ sent: number; failed: number }> {
  const { db, logger, now, delivery } = deps;
  const channels = (['email', 'sms'] as const).filter((channel) => delivery[channel] !== null);
  const due = await claimDueRetries(db, { channels, now, retryAfterMinutes: RETRY_AFTER_MINUTES, limit: BATCH_SIZE });

  let sent = 0;
  for (const message of due) {
    const attempt = message.attempts;
    try {
      await deliver(delivery, message);
      await recordRetryOutcome(db, message.id, { sentAt: now });
      sent += 1;
      logger.info({ outboxId: message.id, channel: message.channel, attempt }, 'outbox message delivered on retry');
    } catch (error) {
      await recordRetryOutcome(db, message.id, { lastError: error instanceof Error ? error.message : String(error) });
      const gaveUp = attempt >= MAX_ATTEMPTS;
      logger.warn(
        { outboxId: message.id, channel: message.channel, attempt, gaveUp, error: errorCodes(message.channel, error) },
        gaveUp ? 'outbox message not delivered; giving up' : 'outbox message retry failed',
      );
    }
  }
  return { sent, failed: due.length - sent };
}

async function deliver(delivery: OutboxDelivery, message: KeptMessage): Promise<void> {
  if (message.channel === 'sms') {
    await delivery.sms!.deliver({ to: message.recipient, text: message.bodyText });
    return;
  }
  await delivery.email!({
    to: message.recipient,
    subject: message.subject ?? '',
    text: message.bodyText,
    html: message.bodyHtml ?? undefined,
    replyTo: message.replyTo ?? undefined,
  });
}

/** What went wrong, without the reply text (an SMTP reply may quote the address). */
function errorCodes(channel: 'email' | 'sms', error: unknown): Record<string, unknown> {
  if (channel === 'email') return deliveryErrorForLog(error);
  return { code: error instanceof SmsProviderError ? error.providerCode : undefined };
}

/** The providers the configuration names; both null means the outbox is the destination. */
export function outboxDeliveryFrom(config: Pick<Config, 'mail' | 'provider' | 'sms'>): OutboxDelivery {
  return { email: smtpDeliveryFrom(config), sms: adapterFromConfig(config.sms) };
}

/** The minutely retry job, started only when a provider is configured. */
export function startOutboxRetry(deps: { queue: JobQueue; db: Db; logger: Logger; clock: Clock; delivery: OutboxDelivery }): void {
  const { queue, db, logger, clock, delivery } = deps;
  if (!delivery.email && !delivery.sms) return;
  queue.every('outbox-retry', RETRY_SWEEP_SECONDS, async () => {
    await retryOutboxMessages({ db, logger, now: new Date(clock()), delivery }).catch((error: unknown) => {
      logger.error({ err: errorForLog(error) }, 'outbox retry failed');
    });
  });
}
