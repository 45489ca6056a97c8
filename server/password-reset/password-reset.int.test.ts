import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultThrottlePolicy } from '../auth/throttle-policy';
import { seedMinimal, sha256Hex, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { startTestSmtp, type CapturedMail, type TestSmtp } from '../../tests/support/test-smtp';

let app: TestApp;
let smtp: TestSmtp;
let seed: MinimalSeed;
let ipCounter = 0;

const PUBLIC_URL = 'https://portal.example.test';
const LINK = /https:\/\/portal\.example\.test\/change-password\/([0-9a-f-]{36})/;

beforeAll(async () => {
  smtp = await startTestSmtp();
  app = await startTestApp({
    config: {
      publicUrl: PUBLIC_URL,
      mail: { smtpUrl: smtp.url, from: 'no-reply@example.test' },
    },
    // The tests here ask for many links to one address; password-reset-throttle.int.test.ts
    // checks the real limits.
    throttlePolicy: {
      ...defaultThrottlePolicy,
      passwordResetByAddress: { ...defaultThrottlePolicy.passwordResetByAddress, freeFailures: 1_000 },
    },
  });
  seed = await seedMinimal(app.db, app.config);
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

/**
 * A browser from its own address (trust proxy is loopback, so X-Forwarded-For counts): the
 * per-IP throttle of one test never spends another test's allowance.
 */
async function browser(): Promise<{ client: TestClient; headers: Record<string, string> }> {
  const client = app.client();
  const headers = { 'x-forwarded-for': `203.0.113.${++ipCounter}` };
  await client.get('/api/auth/csrf', { headers });
  return { client, headers };
}

async function askForReset(body: Record<string, unknown>) {
  const { client, headers } = await browser();
  return client.post('/api/auth/password/reset', body, { headers });
}

/** The next mail to `to` (those already read are skipped). */
const readMails = new Set<CapturedMail>();
async function nextMail(to: string): Promise<CapturedMail> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const mail = smtp.messages.find((m) => m.envelopeTo.includes(to) && !readMails.has(m));
    if (mail) {
      readMails.add(mail);
      return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no new mail to ${to}`);
}

function tokenIn(text: string): string {
  const token = LINK.exec(text)?.[1];
  if (!token) throw new Error('no reset link in the message');
  return token;
}

async function resetLinkByEmail(email: string, language: 'pl' | 'en' = 'pl'): Promise<string> {
  expect((await askForReset({ email, language })).status).toBe(200);
  return tokenIn((await nextMail(email)).text);
}

async function setPassword(token: string, password: string, confirm = password) {
  const { client, headers } = await browser();
  const response = await client.request('PATCH', '/api/auth/password/token', {
    body: { token, password: sha256Hex(password), confirm: sha256Hex(confirm) },
    headers,
  });
  return { response, client };
}

async function verify(token: unknown) {
  const { client, headers } = await browser();
  return client.post('/api/auth/password/token', { token }, { headers });
}

async function login(login: string, password: string) {
  const { client, headers } = await browser();
  await client.fetchCsrf();
  return client.loginPortal(login, password, headers);
}

async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met in time');
}

describe('reset by email', () => {
  it('mails a Polish link that sets a new password; the new one signs in, the old one no longer', async () => {
    const { login: email, password: oldPassword } = seed.patient;
    expect(await askForReset({ email, language: 'pl' })).toMatchObject({ status: 200, body: {} });

    const mail = await nextMail(email);
    expect(mail.subject).toBe('Ustawienie nowego hasła w portalu pacjenta');
    const provider = app.config.provider.legalName;
    expect(mail.from).toContain(provider);
    expect(mail.text).toContain('Link jest ważny przez 60 minut');
    expect(mail.text).toContain(`w portalu pacjenta ${provider}.`);
    expect(mail.html).toContain('<html lang="pl">');
    const token = tokenIn(mail.text);
    expect(mail.html).toContain(`${PUBLIC_URL}/change-password/${token}`);
    // Nothing personal beyond the address it went to.
    expect(mail.raw).not.toMatch(/Anna|Testowa|70050612345|600100200/);

    expect(await verify(token)).toMatchObject({ status: 200, body: {} });
    const { response, client } = await setPassword(token, 'Nowe-haslo-do-portalu');
    expect(response).toMatchObject({ status: 200, body: {} });
    // Setting the password does not sign in.
    expect((await client.get('/api/user/profile')).status).toBe(401);

    expect((await login(email, 'Nowe-haslo-do-portalu')).status).toBe(200);
    expect((await login(email, oldPassword)).status).toBe(401);
    seed.patient.password = 'Nowe-haslo-do-portalu';
  });

  it('mails in English when asked in English', async () => {
    expect((await askForReset({ email: seed.patient.login.toUpperCase(), language: 'en' })).status).toBe(200);

    const mail = await nextMail(seed.patient.login);
    expect(mail.subject).toBe('Setting a new password for the patient portal');
    expect(mail.text).toContain('The link is valid for 60 minutes and can be used only once.');
    expect(mail.text).toContain(`patient portal of ${app.config.provider.legalName}.`);
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.text).not.toContain('Dzień dobry');
    tokenIn(mail.text);
  });

  it('writes USER_PASSWORD_CHANGE to the owner audit and releases a required password change', async () => {
    const token = await resetLinkByEmail(seed.mustChange.login);
    expect((await setPassword(token, 'Zupelnie-nowe-haslo')).response.status).toBe(200);

    const signedIn = await login(seed.mustChange.login, 'Zupelnie-nowe-haslo');
    expect(signedIn.body.user.requirePasswordChange).toBe(false);
    const entries = await app.db('audit_entries').where({ user_id: seed.mustChange.userId, type: 'USER_PASSWORD_CHANGE' });
    expect(entries).toHaveLength(1);
    expect(entries[0].ip).toMatch(/^203\.0\.113\./);
  });

  it('ends every session of the user', async () => {
    const first = await login(seed.patient.login, seed.patient.password);
    expect(first.status).toBe(200);
    const { client: signedIn, headers } = await browser();
    expect((await signedIn.loginPortal(seed.patient.login, seed.patient.password, headers)).status).toBe(200);
    expect((await signedIn.get('/api/user/profile')).status).toBe(200);

    const token = await resetLinkByEmail(seed.patient.login);
    // Even the signed-in browser that follows the link is signed out.
    const response = await signedIn.request('PATCH', '/api/auth/password/token', {
      body: { token, password: sha256Hex('Kolejne-haslo-123'), confirm: sha256Hex('Kolejne-haslo-123') },
      headers,
    });
    expect(response.status).toBe(200);
    seed.patient.password = 'Kolejne-haslo-123';

    expect((await signedIn.get('/api/user/profile')).status).toBe(401);
    const sessions = await app.db('session').whereRaw(`sess ->> 'userId' = ?`, [String(seed.patient.userId)]);
    expect(sessions).toEqual([]);
  });
});

describe('the link', () => {
  it('works once: a second use answers USED_TOKEN', async () => {
    const token = await resetLinkByEmail(seed.patient.login);
    expect((await setPassword(token, 'Pierwsze-uzycie-linku')).response.status).toBe(200);
    seed.patient.password = 'Pierwsze-uzycie-linku';

    expect(await verify(token)).toMatchObject({ status: 410, body: { code: 'USED_TOKEN' } });
    const again = await setPassword(token, 'Drugie-uzycie-linku');
    expect(again.response).toMatchObject({ status: 410, body: { code: 'USED_TOKEN' } });
    expect((await login(seed.patient.login, 'Drugie-uzycie-linku')).status).toBe(401);
  });

  it('cannot be used twice at the same moment', async () => {
    const token = await resetLinkByEmail(seed.patient.login);
    const [a, b] = await Promise.all([setPassword(token, 'Wyscig-pierwszy-1'), setPassword(token, 'Wyscig-drugi-22')]);

    expect([a.response.status, b.response.status].sort()).toEqual([200, 410]);
    const winner = a.response.status === 200 ? 'Wyscig-pierwszy-1' : 'Wyscig-drugi-22';
    expect((await login(seed.patient.login, winner)).status).toBe(200);
    seed.patient.password = winner;
  });

  it('is replaced by a newer one: the older link reads as invalid', async () => {
    const older = await resetLinkByEmail(seed.patient.login);
    const newer = await resetLinkByEmail(seed.patient.login);

    expect(await verify(older)).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    expect((await verify(newer)).status).toBe(200);
  });

  it('answers MISSING_TOKEN and INVALID_TOKEN for a missing, malformed or unknown token', async () => {
    expect(await verify(undefined)).toMatchObject({ status: 400, body: { code: 'MISSING_TOKEN' } });
    expect(await verify('')).toMatchObject({ status: 400, body: { code: 'MISSING_TOKEN' } });
    expect(await verify('not-a-uuid')).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    expect(await verify('0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60')).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    const { response } = await setPassword('0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60', 'Jakies-haslo-123');
    expect(response).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
  });

  it('keeps working after a refused form: passwords that differ answer VALIDATION', async () => {
    const token = await resetLinkByEmail(seed.patient.login);
    const { response } = await setPassword(token, 'Pierwsze-haslo-12', 'Inne-haslo-12345');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path: 'confirm', message: 'validation.password.mismatch' }] });

    const { client, headers } = await browser();
    const unhashed = await client.request('PATCH', '/api/auth/password/token', {
      body: { token, password: 'plain', confirm: 'plain' },
      headers,
    });
    expect(unhashed.body.issues[0]).toEqual({ path: 'password', message: 'validation.password.notHashed' });
    expect((await verify(token)).status).toBe(200);
  });
});

describe('the answer reveals no account', () => {
  it('is the same for unknown, disabled and existing addresses', async () => {
    const answers = await Promise.all(
      ['nikt.taki@example.com', seed.disabled.login, seed.patient.login].map((email) => askForReset({ email, language: 'pl' })),
    );
    const shapes = answers.map((answer) => ({ status: answer.status, text: answer.text, type: answer.headers.get('content-type') }));
    expect(shapes[0]).toEqual({ status: 200, text: '{}', type: 'application/json; charset=utf-8' });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    await nextMail(seed.patient.login);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.messages.some((m) => m.envelopeTo.includes('nikt.taki@example.com') || m.envelopeTo.includes(seed.disabled.login))).toBe(
      false,
    );
  });

  it('takes about as long for an unknown address as for a real one', async () => {
    const timed = async (email: string) => {
      const { client, headers } = await browser();
      const started = performance.now();
      const response = await client.post('/api/auth/password/reset', { email, language: 'pl' }, { headers });
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 5; round++) {
      unknown.push(await timed(`nieznana${round}@example.com`));
      known.push(await timed(seed.mustChange.login));
      await nextMail(seed.mustChange.login);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
    // The lookup and the mail happen after the answer, so both answers do the same work. The
    // margin leaves room for a busy CI machine; an answer that waited for a real lookup and a mail
    // server would still stand out.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(150);
  });
});

describe('validation (spec section 5)', () => {
  it.each([
    [{ language: 'pl' }, 'email', 'passwordReset.validation.emailRequired'],
    [{ email: '  ', language: 'pl' }, 'email', 'passwordReset.validation.emailRequired'],
    [{ email: 'anna@', language: 'pl' }, 'email', 'passwordReset.validation.emailInvalid'],
    [{ phoneNumber: '', language: 'pl' }, 'phoneNumber', 'passwordReset.validation.phoneRequired'],
    [{ phoneNumber: '12345', language: 'pl' }, 'phoneNumber', 'passwordReset.validation.phoneInvalid'],
    [{ phoneNumber: '+48 12345', language: 'pl' }, 'phoneNumber', 'passwordReset.validation.phoneInvalid'],
  ])('%j is refused on %s with %s', async (body, path, message) => {
    const response = await askForReset(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path, message }] });
  });
});

describe('reset by SMS without a provider', () => {
  it('keeps the SMS with the link in the outbox for the phone number of the account, however it is typed', async () => {
    expect((await askForReset({ phoneNumber: '600 100 200', language: 'pl' })).status).toBe(200);

    const sms = await eventually(() => app.db('outbox_messages').where({ channel: 'sms' }).orderBy('id', 'desc').first());
    expect(sms).toMatchObject({ recipient: '+48600100200', sent_at: null, subject: null });
    expect(sms.body_text).toMatch(/^Nowe hasło do portalu pacjenta ustawisz tutaj \(link ważny 60 min\): https:\/\/portal/);
    const token = tokenIn(sms.body_text);
    await eventually(async () => (app.logs.some((line) => line.includes(token)) ? true : undefined));

    expect((await askForReset({ phoneNumber: '+48600100200', language: 'en' })).status).toBe(200);
    const english = await eventually(() => app.db('outbox_messages').where({ channel: 'sms' }).where('id', '>', sms.id).first());
    expect(english.body_text).toMatch(/^Set a new patient portal password here/);

    expect((await setPassword(tokenIn(english.body_text), 'Haslo-z-esemesa-1')).response.status).toBe(200);
    expect((await login(seed.patient.login, 'Haslo-z-esemesa-1')).status).toBe(200);
    seed.patient.password = 'Haslo-z-esemesa-1';
  });
});

// Last: the clock moves forward for the rest of the file.
describe('expiry', () => {
  it('answers EXPIRED_TOKEN after 60 minutes', async () => {
    const token = await resetLinkByEmail(seed.patient.login);
    app.clock.advance(59 * 60_000);
    expect((await verify(token)).status).toBe(200);

    app.clock.advance(2 * 60_000);
    expect(await verify(token)).toMatchObject({ status: 410, body: { code: 'EXPIRED_TOKEN' } });
    expect((await setPassword(token, 'Za-pozno-na-zmiane')).response).toMatchObject({ status: 410, body: { code: 'EXPIRED_TOKEN' } });
  });
});
