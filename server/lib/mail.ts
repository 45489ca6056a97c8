import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db';
import { systemClock, type Clock } from './clock';
import type { Logger } from './logger';
import { keepInOutbox, markOutboxAttempt } from './outbox-repo';

type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where a reply goes when it is not the sender (a contact message: the patient). */
  replyTo?: string;
};

export type Mailer = {
  /**
   * Keeps the message in the outbox, then hands it to SMTP when one is configured. Never throws
   * for a delivery failure (it is recorded on the outbox row): `delivered` tells a caller who
   * cares. Only a failure to store the message at all rejects.
   */
  send(message: MailMessage): Promise<{ delivered: boolean }>;
};

export type MailerDeps = {
  config: Pick<Config, 'isProduction' | 'mail' | 'provider'>;
  db: Db;
  logger: Logger;
  clock?: Clock;
};

// A dead SMTP server must not hold a request or a background job for nodemailer's minutes.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Hands one message to SMTP; throws when the server refuses it or cannot be reached. */
export type SmtpDelivery = (message: MailMessage) => Promise<void>;

/** The configured SMTP server, or null: then the outbox is where mail ends (DECISIONS.md 13). */
export function smtpDeliveryFrom(config: Pick<Config, 'mail' | 'provider'>): SmtpDelivery | null {
  if (!config.mail.smtpUrl) return null;
  const transport: Transporter = nodemailer.createTransport({ url: config.mail.smtpUrl, ...SMTP_TIMEOUTS });
  const from = { name: config.provider.legalName, address: config.mail.from };
  return async (message) => {
    await transport.sendMail({
      from,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  };
}

export function createMailer({ config, db, logger, clock = systemClock }: MailerDeps): Mailer {
  const deliver = smtpDeliveryFrom(config);

  return {
    async send(message) {
      const outboxId = await keepInOutbox(db, {
        channel: 'email',
        recipient: message.to,
        subject: message.subject,
        bodyText: message.text,
        bodyHtml: message.html,
        replyTo: message.replyTo,
      });
      if (!deliver) {
        logKeptMessage(logger, config.isProduction, outboxId, message);
        return { delivered: false };
      }
      try {
        await deliver(message);
        await markOutboxAttempt(db, outboxId, { sentAt: new Date(clock()) });
        return { delivered: true };
      } catch (error) {
        // The SMTP reply may quote the address: the row keeps it for the operator, the log does not.
        const lastError = error instanceof Error ? error.message : String(error);
        await markOutboxAttempt(db, outboxId, { lastError }).catch(() => undefined);
        logger.error({ outboxId, channel: 'email', error: deliveryErrorForLog(error) }, 'mail delivery failed; kept in outbox');
        return { delivered: false };
      }
    },
  };
}

/**
 * DECISIONS.md 13: without SMTP a newcomer reads the message (and its reset link) in the log.
 * In production the log gets the outbox id only: content and address are personal data.
 */
function logKeptMessage(logger: Logger, isProduction: boolean, outboxId: number, message: MailMessage): void {
  if (isProduction) {
    logger.warn({ outboxId, channel: 'email' }, 'no SMTP configured: mail kept in outbox');
    return;
  }
  logger.info(
    { outboxId, channel: 'email', to: message.to, subject: message.subject, text: message.text },
    'no SMTP configured: mail kept in outbox (shown here outside production only)',
  );
}

/** nodemailer's code and SMTP reply code say what went wrong without the reply text's address. */
export function deliveryErrorForLog(error: unknown): Record<string, unknown> {
  const { name, code, responseCode } = (error ?? {}) as { name?: unknown; code?: unknown; responseCode?: unknown };
  return { type: name, code, responseCode };
}
