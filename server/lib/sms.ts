import type { Config } from '../config';
import type { Db } from '../db';
import { systemClock, type Clock } from './clock';
import type { Logger } from './logger';
import { keepInOutbox, markOutboxAttempt } from './outbox-repo';

type SmsMessage = { to: string; text: string };

/** A provider that can put a text on a phone. Throws when the provider refuses or is unreachable. */
export type SmsAdapter = { name: string; deliver(message: SmsMessage): Promise<void> };

export type SmsSender = {
  /** Like the mailer: always kept in the outbox, never throws for a delivery failure. */
  send(message: SmsMessage): Promise<{ delivered: boolean }>;
};

export type SmsSenderDeps = {
  config: Pick<Config, 'isProduction' | 'sms'>;
  db: Db;
  logger: Logger;
  clock?: Clock;
  /** Overrides the adapter the configuration names (tests). */
  adapter?: SmsAdapter | null;
};

export function createSmsSender({ config, db, logger, clock = systemClock, adapter }: SmsSenderDeps): SmsSender {
  const provider = adapter === undefined ? adapterFromConfig(config.sms) : adapter;

  return {
    async send(message) {
      const outboxId = await keepInOutbox(db, { channel: 'sms', recipient: message.to, bodyText: message.text });
      if (!provider) {
        logKeptSms(logger, config.isProduction, outboxId, message);
        return { delivered: false };
      }
      try {
        await provider.deliver(message);
        await markOutboxAttempt(db, outboxId, { sentAt: new Date(clock()) });
        return { delivered: true };
      } catch (error) {
        const lastError = error instanceof Error ? error.message : String(error);
        await markOutboxAttempt(db, outboxId, { lastError }).catch(() => undefined);
        const code = error instanceof SmsProviderError ? error.providerCode : undefined;
        logger.error({ outboxId, channel: 'sms', provider: provider.name, error: { code } }, 'SMS delivery failed; kept in outbox');
        return { delivered: false };
      }
    },
  };
}

/** `outbox` means no provider: messages wait in the outbox table (DECISIONS.md 13). */
export function adapterFromConfig(sms: Config['sms']): SmsAdapter | null {
  if (sms.provider === 'smsapi') return createSmsApiAdapter({ token: sms.smsapiToken!, sender: sms.sender });
  return null;
}

function logKeptSms(logger: Logger, isProduction: boolean, outboxId: number, message: SmsMessage): void {
  if (isProduction) {
    logger.warn({ outboxId, channel: 'sms' }, 'no SMS provider configured: SMS kept in outbox');
    return;
  }
  logger.info(
    { outboxId, channel: 'sms', to: message.to, text: message.text },
    'no SMS provider configured: SMS kept in outbox (shown here outside production only)',
  );
}

export class SmsProviderError extends Error {
  constructor(
    message: string,
    readonly providerCode?: string | number,
  ) {
    super(message);
    this.name = 'SmsProviderError';
  }
}

const SMSAPI_ENDPOINT = 'https://api.smsapi.pl/sms.do';
const SMSAPI_TIMEOUT_MS = 15_000;

export type SmsApiOptions = {
  token: string;
  /** A sender name registered with SMSAPI; without it the account's default is used. */
  sender?: string;
  /** Tests point this at a local fake; production always talks to SMSAPI.pl. */
  endpoint?: string;
};

/**
 * SMSAPI.pl's REST API: a form POST to sms.do with an OAuth bearer token. With format=json it
 * answers `{ count, list: [...] }` on success and `{ error, message }` on refusal (sometimes with
 * HTTP 200), so both the status and the body are checked.
 */
export function createSmsApiAdapter({ token, sender, endpoint = SMSAPI_ENDPOINT }: SmsApiOptions): SmsAdapter {
  return {
    name: 'smsapi',
    async deliver({ to, text }) {
      const form = new URLSearchParams({ to: smsApiNumber(to), message: text, format: 'json', encoding: 'utf-8' });
      if (sender) form.set('from', sender);
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(SMSAPI_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => undefined)) as { error?: number; message?: string; count?: number } | undefined;
      if (!response.ok || !body || body.error !== undefined || !body.count) {
        throw new SmsProviderError(
          `SMSAPI refused the message (HTTP ${response.status}${body?.message ? `: ${body.message}` : ''})`,
          body?.error ?? response.status,
        );
      }
    },
  };
}

/** SMSAPI wants digits with the country code; the portal stores Polish numbers without +48. */
function smsApiNumber(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits.slice(1);
  return digits.length === 9 ? `48${digits}` : digits;
}
