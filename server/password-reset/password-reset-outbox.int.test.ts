import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

/** DECISIONS.md 13: with no SMTP and no SMS provider, messages wait in the outbox table. */
let development: TestApp;
let production: TestApp;
let devSeed: MinimalSeed;
let prodSeed: MinimalSeed;

beforeAll(async () => {
  development = await startTestApp({ config: { env: 'development', isProduction: false, mail: { from: 'no-reply@example.test' } } });
  devSeed = await seedMinimal(development.db, development.config);
  production = await startTestApp({ config: { env: 'production', isProduction: true, mail: { from: 'no-reply@example.test' } } });
  prodSeed = await seedMinimal(production.db, production.config);
});
afterAll(async () => {
  await development?.close();
  await production?.close();
});

// Production cookies are Secure: the request must look like HTTPS behind the trusted proxy.
const HTTPS = { 'x-forwarded-proto': 'https' };

async function askForReset(app: TestApp, body: Record<string, unknown>) {
  const client = app.client();
  await client.get('/api/auth/csrf', { headers: HTTPS });
  const response = await client.post('/api/auth/password/reset', { language: 'pl', ...body }, { headers: HTTPS });
  expect(response).toMatchObject({ status: 200, body: {} });
}

async function latestOutbox(app: TestApp, channel: 'email' | 'sms') {
  await expect.poll(() => app.db('outbox_messages').where({ channel }).first()).toBeDefined();
  return app.db('outbox_messages').where({ channel }).orderBy('id', 'desc').first();
}

const LINK = /http:\/\/127\.0\.0\.1:\d+\/change-password\/[0-9a-f-]{36}/;

describe('without SMTP, outside production', () => {
  it('keeps the mail in the outbox and prints it, link included, to the log', async () => {
    await askForReset(development, { email: devSeed.patient.login });

    const mail = await latestOutbox(development, 'email');
    expect(mail).toMatchObject({ recipient: devSeed.patient.login, sent_at: null, attempts: 0 });
    expect(mail.subject).toBe('Ustawienie nowego hasła w portalu pacjenta');
    expect(mail.body_html).toContain('<html lang="pl">');
    const link = LINK.exec(mail.body_text)![0];
    const line = development.logs.map((l) => JSON.parse(l)).find((entry) => entry.outboxId === mail.id);
    expect(line).toMatchObject({ channel: 'email', to: devSeed.patient.login, msg: expect.stringContaining('kept in outbox') });
    expect(line.text).toContain(link);
  });

  it('keeps an SMS in the outbox and prints it to the log', async () => {
    await askForReset(development, { phoneNumber: '600100200' });

    const sms = await latestOutbox(development, 'sms');
    const link = LINK.exec(sms.body_text)![0];
    expect(development.logs.some((line) => line.includes(link))).toBe(true);
  });
});

describe('without SMTP, in production', () => {
  it('keeps the messages but the log names only their outbox ids', async () => {
    await askForReset(production, { email: prodSeed.patient.login });
    await askForReset(production, { phoneNumber: '+48 600 100 200' });

    const mail = await latestOutbox(production, 'email');
    const sms = await latestOutbox(production, 'sms');
    expect(mail.body_text).toMatch(LINK);
    expect(sms.body_text).toMatch(LINK);
    const lines = production.logs.map((l) => JSON.parse(l)).filter((entry) => entry.outboxId !== undefined);
    expect(lines.map((entry) => entry.outboxId).sort()).toEqual([mail.id, sms.id].sort());
    const everything = production.logs.join('\n');
    expect(everything).not.toMatch(/change-password|anna\.testowa|600100200|Ustawienie/);
  });
});
