import type { ContactRequest } from '../../common/validation/contact';
import type { Throttle } from '../auth/throttle';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { errorForLog, type Logger } from '../lib/logger';
import type { Mailer } from '../lib/mail';
import { providerMail } from './provider-mail';
import { insertContactMessage, markForwarded } from './repo';

export type ContactDeps = {
  db: Db;
  config: Pick<Config, 'provider'>;
  mailer: Mailer;
  throttle: Throttle;
  clock: Clock;
  logger: Logger;
};

/**
 * A patient's message to the provider: counted against spam, stored, then forwarded to the
 * provider's inbox. Once stored it is never lost: a failed forward leaves the message here
 * (forwarded_at empty) and the mail in the outbox, and the patient is still told it arrived.
 */
export function createContactService({ db, config, mailer, throttle, clock, logger }: ContactDeps) {
  async function forward(id: number, message: ContactRequest, receivedAt: Date): Promise<boolean> {
    try {
      const { delivered } = await mailer.send({
        to: config.provider.email,
        replyTo: message.email ?? undefined,
        ...providerMail(id, message, receivedAt),
      });
      if (delivered) await markForwarded(db, id, new Date(clock()));
      return delivered;
    } catch (error) {
      logger.error({ contactMessageId: id, err: errorForLog(error) }, 'contact message stored but not forwarded');
      return false;
    }
  }

  return {
    async submit(message: ContactRequest, ip: string | undefined): Promise<void> {
      await throttle.admit(throttle.forContactMessage(ip ?? 'unknown'));
      const receivedAt = new Date(clock());
      const id = await insertContactMessage(db, message, receivedAt);
      const forwarded = await forward(id, message, receivedAt);
      // The id and outcome only: names, phone, email and content are personal data.
      logger.info({ contactMessageId: id, forwarded }, 'contact message received');
    },
  };
}
