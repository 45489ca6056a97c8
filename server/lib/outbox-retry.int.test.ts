import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { startTestSmtp, type TestSmtp } from '../../tests/support/test-smtp';
import { loadConfig, type Config } from '../config';
import type { JobQueue } from './job-queue';
import { createLogger } from './logger';
import { createMailer } from './mail';
import { MAX_ATTEMPTS, outboxDeliveryFrom, retryOutboxMessages, startOutboxRetry, type OutboxDelivery } from './outbox-retry';
import { createSmsSender, type SmsAdapter } from './sms';

const MINUTE = 60_000;
const RECIPIENT = 'retry.patient@example.com';

let database: TestDatabase;
/** A port where SMTP is down until a test starts the server on it. */
let smtpPort: number;
let smtp: TestSmtp | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  const probe = await startTestSmtp();
  smtpPort = probe.port;
  await probe.close();
});
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

function setup(env: Record<string, string>) {
  const config: Config = loadConfig({ SESSION_SECRET: 'x'.repeat(32), ACCESS_CODE_SECRET: 'y'.repeat(32), NODE_ENV: 'test', ...env });
  const logs: string[] = [];
  const logger = createLogger(config, { write: (line: string) => void logs.push(line) });
  return { config, logger, logs };
}

const row = (id: number) => database.db('outbox_messages').where({ id }).first();
const lastRowId = async () => Number((await database.db('outbox_messages').orderBy('id', 'desc').first('id')).id);

describe('outbox retry', () => {
  const smtpUrl = () => `smtp://test:test@127.0.0.1:${smtpPort}`;

  it('sends a mail again once SMTP is back, with growing waits, Reply-To kept and nothing personal logged', async () => {
    const { config, logger, logs } = setup({ SMTP_URL: smtpUrl(), MAIL_FROM: 'no-reply@example.com' });
    const mailer = createMailer({ config, db: database.db, logger });
    const delivery = outboxDeliveryFrom(config);
    const message = { to: RECIPIENT, subject: 'Wiadomość z formularza', text: 'Treść prywatna', replyTo: 'answer.me@example.com' };

    expect(await mailer.send(message)).toEqual({ delivered: false });
    const id = await lastRowId();
    const created = new Date((await row(id)).created_at).getTime();
    expect(await row(id)).toMatchObject({ attempts: 1, sent_at: null, reply_to: 'answer.me@example.com' });

    // Not due before its first wait; due after it, and still failing while SMTP is down.
    expect(await retryOutboxMessages({ db: database.db, logger, now: new Date(created + 30_000), delivery })).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(await retryOutboxMessages({ db: database.db, logger, now: new Date(created + 2 * MINUTE), delivery })).toEqual({
      sent: 0,
      failed: 1,
    });
    expect((await row(id)).attempts).toBe(2);
    expect((await row(id)).last_error).toMatch(/ECONNREFUSED|connect/i);
    // The second wait (5 minutes from creation) has not passed.
    expect(await retryOutboxMessages({ db: database.db, logger, now: new Date(created + 3 * MINUTE), delivery })).toEqual({
      sent: 0,
      failed: 0,
    });

    smtp = await startTestSmtp(smtpPort);
    expect(await retryOutboxMessages({ db: database.db, logger, now: new Date(created + 6 * MINUTE), delivery })).toEqual({
      sent: 1,
      failed: 0,
    });
    const mail = await smtp.waitForMail(RECIPIENT);
    expect(mail.subject).toBe('Wiadomość z formularza');
    expect(mail.raw).toMatch(/^Reply-To: answer\.me@example\.com/m);
    expect(await row(id)).toMatchObject({ attempts: 3, last_error: null });
    expect((await row(id)).sent_at).not.toBeNull();

    // Sent once: a later sweep leaves it alone.
    expect(await retryOutboxMessages({ db: database.db, logger, now: new Date(created + 24 * 60 * MINUTE), delivery })).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(smtp.messages.filter((received) => received.envelopeTo.includes(RECIPIENT))).toHaveLength(1);
    const logged = logs.join('\n');
    for (const personal of [RECIPIENT, 'answer.me@example.com', 'Treść prywatna', 'Wiadomość z formularza'])
      expect(logged).not.toContain(personal);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and keeps the last error`, async () => {
    const { config, logger, logs } = setup({});
    let calls = 0;
    const refusing: SmsAdapter = {
      name: 'refusing',
      deliver: async () => {
        calls += 1;
        throw new Error(`provider refused (${calls})`);
      },
    };
    const sms = createSmsSender({ config, db: database.db, logger, adapter: refusing });
    expect(await sms.send({ to: '600100200', text: 'Kod: 123456' })).toEqual({ delivered: false });
    const id = await lastRowId();
    const created = new Date((await row(id)).created_at).getTime();
    const delivery: OutboxDelivery = { email: null, sms: refusing };

    for (let sweep = 0; sweep < 20; sweep++) {
      await retryOutboxMessages({ db: database.db, logger, now: new Date(created + sweep * 60 * MINUTE), delivery });
    }
    expect(calls).toBe(MAX_ATTEMPTS);
    expect(await row(id)).toMatchObject({ attempts: MAX_ATTEMPTS, sent_at: null, last_error: `provider refused (${MAX_ATTEMPTS})` });
    expect(logs.some((line) => line.includes('giving up') && line.includes(`"outboxId":${id}`))).toBe(true);
    expect(logs.join('\n')).not.toContain('600100200');
  });

  it('sends a message once when two sweeps overlap (a slow provider)', async () => {
    const { config, logger } = setup({});
    const delivered: string[] = [];
    const failing: SmsAdapter = { name: 'down', deliver: async () => Promise.reject(new Error('down')) };
    const slow: SmsAdapter = {
      name: 'slow',
      deliver: async ({ text }) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        delivered.push(text);
      },
    };
    await createSmsSender({ config, db: database.db, logger, adapter: failing }).send({ to: '600100300', text: 'overlap' });
    const created = new Date((await row(await lastRowId())).created_at).getTime();
    const sweep = () =>
      retryOutboxMessages({ db: database.db, logger, now: new Date(created + 2 * MINUTE), delivery: { email: null, sms: slow } });
    const results = await Promise.all([sweep(), sweep()]);
    expect(delivered).toEqual(['overlap']);
    expect(results.map((result) => result.sent).sort()).toEqual([0, 1]);
  });

  it('leaves messages kept without a provider alone: the outbox is their destination', async () => {
    const { config, logger } = setup({});
    const mailer = createMailer({ config, db: database.db, logger });
    expect(await mailer.send({ to: RECIPIENT, subject: 'Kept', text: 'Kept' })).toEqual({ delivered: false });
    const id = await lastRowId();
    expect(outboxDeliveryFrom(config)).toEqual({ email: null, sms: null });

    // A provider configured later does not send what was never meant to leave (attempts 0).
    const later = outboxDeliveryFrom(setup({ SMTP_URL: smtpUrl() }).config);
    await retryOutboxMessages({ db: database.db, logger, now: new Date(Date.now() + 24 * 60 * MINUTE), delivery: later });
    expect(await row(id)).toMatchObject({ attempts: 0, sent_at: null });
  });

  it('runs as a periodic job only when a provider is configured', () => {
    const scheduled: string[] = [];
    const queue = { every: (name: string) => void scheduled.push(name) } as unknown as JobQueue;
    const { config, logger } = setup({});
    startOutboxRetry({ queue, db: database.db, logger, clock: Date.now, delivery: outboxDeliveryFrom(config) });
    expect(scheduled).toEqual([]);
    startOutboxRetry({
      queue,
      db: database.db,
      logger,
      clock: Date.now,
      delivery: outboxDeliveryFrom(setup({ SMTP_URL: smtpUrl() }).config),
    });
    expect(scheduled).toEqual(['outbox-retry']);
  });
});
