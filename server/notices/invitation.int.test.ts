import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, startTestApp, type TestApp } from '../../tests/support/app';
import { providerClient, type ProviderClient } from '../../tests/support/provider';
import { insertAccount } from '../../tests/support/seed-minimal';

let app: TestApp;
let provider: ProviderClient;
let people = 0;

const PUBLIC_URL = 'https://portal.example.test';
const LINK = /https:\/\/portal\.example\.test\/change-password\/([0-9a-f-]{36})/;
const DAY_MS = 24 * 60 * 60_000;

beforeAll(async () => {
  app = await startTestApp({ config: { publicUrl: PUBLIC_URL } });
  provider = await providerClient(app, ['patients:write']);
});
afterAll(() => app?.close());

/** A patient as the provider's intake would store her: with the provider's own id. */
async function providerPatient(fields: { email?: string | null; phoneNumber?: string | null } = {}) {
  const n = ++people;
  const externalId = `RIS-PAT-${n}`;
  const email = fields.email === undefined ? `zaproszona.${n}@example.com` : fields.email;
  const phoneNumber = fields.phoneNumber === undefined ? null : fields.phoneNumber;
  const [row] = await app
    .db('personal_data')
    .insert({
      first_name: 'Irena',
      last_name: `Zaproszona${n}`,
      birth_at: '1972-08-09',
      email,
      phone_number: phoneNumber,
      external_id: externalId,
    })
    .returning('id');
  return { externalId, personalDataId: Number(row.id), email, phoneNumber };
}

const invite = (externalId: string, body: unknown, client = provider, headers?: Record<string, string>) =>
  client.post(`/patients/${encodeURIComponent(externalId)}/invitation`, body, { headers });

async function lastOutbox(recipient: string) {
  return app.db('outbox_messages').where({ recipient }).orderBy('id', 'desc').first('channel', 'subject', 'body_text', 'body_html');
}

async function countOf(query: ReturnType<TestApp['db']>): Promise<number> {
  const [row] = await query.count<{ count: string | number }[]>('* as count');
  return Number(row!.count);
}

async function setPasswordWith(token: string, password: string) {
  const browser = app.client();
  await browser.fetchCsrf();
  return browser.request('PATCH', '/api/auth/password/token', {
    body: { token, password: sha256Hex(password), confirm: sha256Hex(password) },
  });
}

describe('POST /api/provider/v1/patients/:externalId/invitation', () => {
  it('opens an account, mails a link that sets the password once, and she can then sign in', async () => {
    const patient = await providerPatient();
    const before = app.clock.now();
    const response = await invite(patient.externalId, { channel: 'email', language: 'pl' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ userId: expect.any(Number), channel: 'email', expiresAt: expect.any(String) });
    const expiresAt = new Date(response.body.expiresAt).getTime();
    expect(expiresAt - before).toBeGreaterThanOrEqual(7 * DAY_MS - 60_000);
    expect(expiresAt - before).toBeLessThanOrEqual(7 * DAY_MS + 60_000);

    const account = await app.db('users').where({ id: response.body.userId }).first();
    expect(account).toMatchObject({ personal_data_id: patient.personalDataId, email: patient.email, require_password_change: false });
    expect(account.password_hash).toMatch(/^\$argon2id\$/);
    const token = await app.db('password_reset_tokens').where({ user_id: response.body.userId }).first('purpose', 'channel');
    expect(token).toEqual({ purpose: 'invitation', channel: 'email' });

    const mail = await lastOutbox(patient.email!);
    expect(mail.subject).toBe('Zaproszenie do portalu pacjenta');
    expect(mail.body_text).toContain(`Loginem do portalu jest adres e-mail: ${patient.email}`);
    expect(mail.body_text).toContain('7 dni');
    expect(mail.body_html).toContain('<html lang="pl">');
    const link = LINK.exec(mail.body_text)![1]!;

    // Nobody knows the password the account was opened with.
    expect((await app.client().loginPortal(patient.email!, '')).status).toBe(401);

    expect((await setPasswordWith(link, 'Moje nowe haslo 42')).status).toBe(200);
    const signedIn = app.client();
    const login = await signedIn.loginPortal(patient.email!, 'Moje nowe haslo 42');
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ id: response.body.userId, requirePasswordChange: false });

    const again = await setPasswordWith(link, 'Inne haslo jeszcze 43');
    expect(again).toMatchObject({ status: 410, body: { code: 'USED_TOKEN' } });
    expect((await app.client().loginPortal(patient.email!, 'Inne haslo jeszcze 43')).status).toBe(401);

    const audit = await app.db('staff_audit').where({ action: 'invitePatient' }).orderBy('id', 'desc').first();
    expect(audit).toMatchObject({ object_type: 'patient', object_id: String(patient.personalDataId), status: 202 });
  });

  it('sends an SMS in English to a patient with an account, keeping the account, and the newest link wins', async () => {
    const patient = await providerPatient({ phoneNumber: '+48601002003' });
    const userId = await insertAccount(app.db, patient.personalDataId, {
      email: `konto.${patient.externalId}@example.com`,
      password: 'Stare!Haslo12',
    });

    const first = await invite(patient.externalId, { channel: 'sms', language: 'en' });
    expect(first).toMatchObject({ status: 202, body: { userId, channel: 'sms' } });
    const firstSms = await lastOutbox(patient.phoneNumber!);
    expect(firstSms.channel).toBe('sms');
    expect(firstSms.body_text).toMatch(/^Invitation to the patient portal: set your password here \(link valid 7 days\): https:/);
    const firstToken = LINK.exec(firstSms.body_text)![1]!;

    const second = await invite(patient.externalId, { channel: 'sms', language: 'en' });
    expect(second).toMatchObject({ status: 202, body: { userId } });
    const secondToken = LINK.exec((await lastOutbox(patient.phoneNumber!)).body_text)![1]!;
    expect(secondToken).not.toBe(firstToken);
    expect(await countOf(app.db('users').where({ personal_data_id: patient.personalDataId }))).toBe(1);

    expect((await setPasswordWith(firstToken, 'Pierwszy link 12345')).status).toBe(400);
    expect((await setPasswordWith(secondToken, 'Drugi link dziala 123')).status).toBe(200);
    expect((await app.client().loginPortal(`konto.${patient.externalId}@example.com`, 'Drugi link dziala 123')).status).toBe(200);
  });

  it('replays a retried call with the same Idempotency-Key without sending again', async () => {
    const patient = await providerPatient();
    const headers = { 'Idempotency-Key': `invite-${patient.externalId}` };
    const first = await invite(patient.externalId, { channel: 'email', language: 'en' }, provider, headers);
    const retry = await invite(patient.externalId, { channel: 'email', language: 'en' }, provider, headers);
    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countOf(app.db('outbox_messages').where({ recipient: patient.email }))).toBe(1);
  });

  it('answers 422 in English for a patient without an email address, or without a phone for an SMS', async () => {
    const noEmail = await providerPatient({ email: null, phoneNumber: '+48601002004' });
    const response = await invite(noEmail.externalId, { channel: 'sms', language: 'pl' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 'VALIDATION',
      issues: [{ path: 'email', message: expect.stringMatching(/^The patient has no email address/) }],
    });
    expect(await app.db('users').where({ personal_data_id: noEmail.personalDataId }).first()).toBeUndefined();

    const noPhone = await providerPatient();
    const sms = await invite(noPhone.externalId, { channel: 'sms', language: 'pl' });
    expect(sms).toMatchObject({ status: 422, body: { code: 'VALIDATION', issues: [{ path: 'phoneNumber' }] } });
    expect(await app.db('users').where({ personal_data_id: noPhone.personalDataId }).first()).toBeUndefined();
  });

  it('answers 404 for an unknown patient and 400 for a bad body', async () => {
    expect(await invite('RIS-NOBODY', { channel: 'email', language: 'pl' })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const patient = await providerPatient();
    expect(await invite(patient.externalId, { channel: 'fax', language: 'pl' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION' },
    });
    expect(await invite(patient.externalId, { channel: 'email', language: 'de' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION' },
    });
  });

  it("answers 409 when her email address is another account's login", async () => {
    const other = await providerPatient();
    await insertAccount(app.db, other.personalDataId, { email: 'wspolny@example.com', password: 'Wspolne!Haslo1' });
    const patient = await providerPatient({ email: 'WSPOLNY@example.com' });
    expect(await invite(patient.externalId, { channel: 'email', language: 'pl' })).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
  });

  it('refuses a key without patients:write', async () => {
    const patient = await providerPatient();
    const ordersOnly = await providerClient(app, ['orders:read']);
    const response = await invite(patient.externalId, { channel: 'email', language: 'pl' }, ordersOnly);
    expect(response).toMatchObject({ status: 403, body: { code: 'API_KEY_SCOPE', requiredScope: 'patients:write' } });
    expect(await lastOutbox(patient.email!)).toBeUndefined();
  });
});
