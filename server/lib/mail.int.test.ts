import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { startTestSmtp, type TestSmtp } from '../../tests/support/test-smtp';
import { loadConfig, type Config } from '../config';
import { createLogger } from './logger';
import { createMailer } from './mail';

let database: TestDatabase;
let smtp: TestSmtp;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

function setup(env: Record<string, string>) {
  const config: Config = loadConfig({ SESSION_SECRET: 'x'.repeat(32), ACCESS_CODE_SECRET: 'y'.repeat(32), ...env });
  const logs: string[] = [];
  const logger = createLogger(config, { write: (line: string) => void logs.push(line) });
  return { mailer: createMailer({ config, db: database.db, logger }), logs };
}

const outboxRow = (id: number) => database.db('outbox_messages').where({ id }).first();
const lastOutboxRow = () => database.db('outbox_messages').orderBy('id', 'desc').first();

const message = {
  to: 'patient@example.com',
  subject: 'Zażółć gęślą jaźń',
  text: 'Link: http://localhost:3000/change-password/abc',
  html: '<p>Link: <a href="http://localhost:3000/change-password/abc">zmień hasło</a></p>',
};

describe('mailer', () => {
  it('delivers through SMTP with the provider as sender and marks the outbox row sent', async () => {
    const { mailer } = setup({
      NODE_ENV: 'test',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'no-reply@example.com',
      PROVIDER_LEGAL_NAME: 'Centrum Testowe',
    });

    await expect(mailer.send(message)).resolves.toEqual({ delivered: true });

    const mail = await smtp.waitForMail('patient@example.com');
    expect(mail.subject).toBe('Zażółć gęślą jaźń');
    expect(mail.text).toContain('http://localhost:3000/change-password/abc');
    expect(mail.html).toContain('zmień hasło');
    expect(mail.from).toContain('Centrum Testowe');
    expect(mail.envelopeFrom).toBe('no-reply@example.com');
    const row = await lastOutboxRow();
    expect(row).toMatchObject({ channel: 'email', recipient: 'patient@example.com', attempts: 1, last_error: null });
    expect(row.sent_at).not.toBeNull();
  });

  it('keeps the message and records the failure when SMTP is unreachable, without throwing', async () => {
    const { mailer, logs } = setup({ NODE_ENV: 'test', SMTP_URL: 'smtp://127.0.0.1:1' });

    await expect(mailer.send(message)).resolves.toEqual({ delivered: false });

    const row = await lastOutboxRow();
    expect(row).toMatchObject({ attempts: 1, sent_at: null });
    expect(row.last_error).toBeTruthy();
    expect(logs.join('\n')).toContain('mail delivery failed');
    expect(logs.join('\n')).not.toContain('patient@example.com');
  });

  it('without SMTP prints the message to the log outside production', async () => {
    const { mailer, logs } = setup({ NODE_ENV: 'development' });

    await expect(mailer.send(message)).resolves.toEqual({ delivered: false });

    const row = await lastOutboxRow();
    expect(await outboxRow(row.id)).toMatchObject({ sent_at: null, attempts: 0, body_text: message.text });
    expect(logs.join('\n')).toContain('http://localhost:3000/change-password/abc');
  });

  it('without SMTP in production logs only the outbox id, never content or address', async () => {
    const { mailer, logs } = setup({ NODE_ENV: 'production' });

    await mailer.send(message);

    const row = await lastOutboxRow();
    const line = JSON.parse(logs.at(-1)!);
    expect(line).toMatchObject({ outboxId: row.id, msg: expect.stringContaining('kept in outbox') });
    expect(logs.join('\n')).not.toMatch(/change-password|patient@example\.com|Zażółć/);
  });
});
