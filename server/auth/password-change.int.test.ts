import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, sha256Hex, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { insertAccount, insertPerson } from '../../tests/support/seed-minimal';
import { defaultThrottlePolicy } from './throttle-policy';

let app: TestApp;
let seed: MinimalSeed;

/** Small numbers so the wait is reached in a few requests; the clock is moved, not slept. */
const passwordChangeByUser = { freeFailures: 2, firstDelayMs: 2_000, maxDelayMs: 8_000, windowMs: 15 * 60_000 };

beforeAll(async () => {
  app = await startTestApp({ throttlePolicy: { ...defaultThrottlePolicy, passwordChangeByUser } });
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

const NEW_PASSWORD = 'Kalafior na parze 7';

let accounts = 0;
/** A patient of her own, so one test's password change never leaks into another's. */
async function newPatient(options: { requirePasswordChange?: boolean } = {}) {
  accounts += 1;
  const login = `pacjentka${accounts}@example.com`;
  const password = `Pierwsze!Haslo${accounts}`;
  const personId = await insertPerson(app.db, { firstName: 'Jadwiga', lastName: `Próbna${accounts}`, birthAt: '1966-02-03' });
  const userId = await insertAccount(app.db, personId, { email: login, password, ...options });
  return { login, password, userId };
}

async function signedIn(login: string, password: string): Promise<TestClient> {
  const client = app.client();
  const response = await client.loginPortal(login, password);
  expect(response.status).toBe(200);
  return client;
}

function changePassword(
  client: TestClient,
  oldPassword: string,
  newPassword: string,
  confirm = newPassword,
  headers: Record<string, string> = {},
) {
  return client.request('PATCH', '/api/auth/password', {
    body: { oldPassword: sha256Hex(oldPassword), newPassword: sha256Hex(newPassword), confirm: sha256Hex(confirm) },
    headers,
  });
}

async function canLogIn(login: string, password: string): Promise<boolean> {
  const client = app.client();
  return (await client.loginPortal(login, password)).status === 200;
}

const auditOf = (userId: number, type: string) => app.db('audit_entries').where({ user_id: userId, type }).orderBy('id');
const storedHash = async (userId: number): Promise<string> => (await app.db('users').where({ id: userId }).first()).password_hash;

describe('PATCH /api/auth/password', () => {
  it('replaces the password: the new one signs in, the old one no longer does', async () => {
    const patient = await newPatient();
    const client = await signedIn(patient.login, patient.password);

    const response = await changePassword(client, patient.password, NEW_PASSWORD, NEW_PASSWORD, { 'x-forwarded-for': '198.51.100.31' });

    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: patient.userId, requirePasswordChange: false });
    expect(await canLogIn(patient.login, NEW_PASSWORD)).toBe(true);
    expect(await canLogIn(patient.login, patient.password)).toBe(false);
    const user = await app.db('users').where({ id: patient.userId }).first();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.password_changed_at).toBeInstanceOf(Date);
    expect(await auditOf(patient.userId, 'USER_PASSWORD_CHANGE')).toMatchObject([{ ip: '198.51.100.31' }]);
  });

  it('never writes the password hashes to the log', async () => {
    const patient = await newPatient();
    const client = await signedIn(patient.login, patient.password);
    await changePassword(client, patient.password, NEW_PASSWORD);
    const log = app.logs.join('\n');
    expect(log).not.toContain(sha256Hex(NEW_PASSWORD));
    expect(log).not.toContain(sha256Hex(patient.password));
  });

  it('refuses a wrong old password with 403 INVALID_PASSWORD, logs it and changes nothing', async () => {
    const patient = await newPatient();
    const client = await signedIn(patient.login, patient.password);
    const hashBefore = await storedHash(patient.userId);

    const response = await changePassword(client, 'Nie To Haslo 123', NEW_PASSWORD, NEW_PASSWORD, { 'x-forwarded-for': '198.51.100.32' });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INVALID_PASSWORD' });
    expect(await storedHash(patient.userId)).toBe(hashBefore);
    expect(await auditOf(patient.userId, 'USER_PASSWORD_CHANGE_UNAUTHORIZED')).toMatchObject([{ ip: '198.51.100.32' }]);
    expect(await auditOf(patient.userId, 'USER_PASSWORD_CHANGE')).toEqual([]);
    // She is still signed in and may try again.
    expect((await client.get('/api/user/profile')).status).toBe(200);
    expect((await changePassword(client, patient.password, NEW_PASSWORD)).status).toBe(200);
  });

  it.each([
    ['a confirmation that differs', { confirm: sha256Hex('Inne haslo niz nowe') }, 'confirm', 'validation.password.mismatch'],
    [
      'the old password again',
      { newPassword: sha256Hex('Pierwsze'), confirm: sha256Hex('Pierwsze'), oldPassword: sha256Hex('Pierwsze') },
      'newPassword',
      'validation.password.sameAsOld',
    ],
    [
      'a plain password that was not hashed',
      { newPassword: NEW_PASSWORD, confirm: NEW_PASSWORD },
      'newPassword',
      'validation.password.notHashed',
    ],
    ['upper-case hex', { oldPassword: sha256Hex('x').toUpperCase() }, 'oldPassword', 'validation.password.notHashed'],
    ['no old password', { oldPassword: undefined }, 'oldPassword', 'validation.password.oldRequired'],
    ['an empty confirmation', { confirm: '' }, 'confirm', 'validation.password.confirmRequired'],
  ])('answers 400 for %s and changes nothing', async (_case, override, path, message) => {
    const patient = await newPatient();
    const client = await signedIn(patient.login, patient.password);
    const hashBefore = await storedHash(patient.userId);
    const body = {
      oldPassword: sha256Hex(patient.password),
      newPassword: sha256Hex(NEW_PASSWORD),
      confirm: sha256Hex(NEW_PASSWORD),
      ...override,
    };

    const response = await client.request('PATCH', '/api/auth/password', { body });

    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION');
    expect(response.body.issues).toContainEqual({ path, message });
    expect(await storedHash(patient.userId)).toBe(hashBefore);
  });

  it('ends every other session of the patient; the one that changed it lives on under a new id', async () => {
    const patient = await newPatient();
    const laptop = await signedIn(patient.login, patient.password);
    const phone = await signedIn(patient.login, patient.password);
    const oldLaptopCookie = laptop.sessionCookie!;
    const someoneElse = await signedIn(seed.patient.login, seed.patient.password);

    const response = await changePassword(laptop, patient.password, NEW_PASSWORD);

    expect(response.status).toBe(200);
    expect(laptop.sessionCookie).not.toBe(oldLaptopCookie);
    expect(laptop.csrfToken).toBe(response.body.csrfToken);
    expect((await laptop.get('/api/user/profile')).status).toBe(200);
    expect((await laptop.get('/api/screening')).status).not.toBe(401);
    expect((await phone.get('/api/user/profile')).status).toBe(401);
    // The id the laptop had before is worthless now, wherever a copy of it went.
    const stolen = app.client();
    stolen.cookies.set('portal.sid', oldLaptopCookie);
    expect((await stolen.get('/api/user/profile')).status).toBe(401);
    // Other patients keep their sessions.
    expect((await someoneElse.get('/api/user/profile')).status).toBe(200);
    const rows = await app.db('session').whereRaw(`sess ->> 'userId' = ?`, [String(patient.userId)]);
    expect(rows).toHaveLength(1);
  });

  it('releases a patient who had to change her password, at once and for good', async () => {
    const patient = await newPatient({ requirePasswordChange: true });
    const client = await signedIn(patient.login, patient.password);
    expect((await client.get('/api/screening')).body).toEqual({ code: 'PASSWORD_CHANGE_REQUIRED' });

    const response = await changePassword(client, patient.password, NEW_PASSWORD);

    expect(response.status).toBe(200);
    expect(response.body.user.requirePasswordChange).toBe(false);
    expect((await client.get('/api/user/profile')).body.requirePasswordChange).toBe(false);
    expect((await client.get('/api/screening')).body).not.toEqual({ code: 'PASSWORD_CHANGE_REQUIRED' });
    expect((await app.db('users').where({ id: patient.userId }).first()).require_password_change).toBe(false);
    const later = await signedIn(patient.login, NEW_PASSWORD);
    expect((await later.get('/api/screening')).body).not.toEqual({ code: 'PASSWORD_CHANGE_REQUIRED' });
  });

  it('lets the seeded patient held by requirePasswordChange reach other endpoints after the change', async () => {
    const client = await signedIn(seed.mustChange.login, seed.mustChange.password);
    expect((await client.get('/api/screening')).status).toBe(403);
    expect((await changePassword(client, seed.mustChange.password, NEW_PASSWORD)).status).toBe(200);
    const screening = await client.get('/api/screening');
    expect(screening.status).toBe(200);
    expect(screening.body.id).toBe(seed.mustChange.screeningId);
  });

  it('refuses a result-portal (guest) session with 404 and logs the attempt on its screening', async () => {
    const guest = app.client();
    expect((await guest.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);

    const response = await changePassword(guest, 'cokolwiek', NEW_PASSWORD);

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND' });
    const entries = await app
      .db('audit_entries')
      .where({ screening_id: seed.guest.screeningId, type: 'USER_PASSWORD_CHANGE_UNAUTHORIZED' });
    expect(entries).toHaveLength(1);
  });

  it('answers 401 without a signed-in session', async () => {
    const visitor = app.client();
    await visitor.fetchCsrf();
    expect((await changePassword(visitor, 'a', 'b')).status).toBe(401);
  });

  it('slows down a guesser of the old password, per account, and lets her in again after the wait', async () => {
    const patient = await newPatient();
    const thief = await signedIn(patient.login, patient.password);
    const bystander = await newPatient();
    const bystanderClient = await signedIn(bystander.login, bystander.password);

    // Free failures, then the one that starts the wait: each is still checked and refused.
    for (let attempt = 1; attempt <= passwordChangeByUser.freeFailures + 1; attempt += 1) {
      expect((await changePassword(thief, `Zgadywane haslo ${attempt}`, NEW_PASSWORD)).status).toBe(403);
    }
    // During the wait even the right password is not checked.
    const waiting = await changePassword(thief, patient.password, NEW_PASSWORD);
    expect(waiting.status).toBe(429);
    expect(waiting.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await canLogIn(patient.login, NEW_PASSWORD)).toBe(false);
    // Another account is not held up by her bucket.
    expect((await changePassword(bystanderClient, bystander.password, NEW_PASSWORD)).status).toBe(200);
    // Only checked attempts are logged: the refused-while-waiting one is not.
    expect(await auditOf(patient.userId, 'USER_PASSWORD_CHANGE_UNAUTHORIZED')).toHaveLength(passwordChangeByUser.freeFailures + 1);

    app.clock.advance(passwordChangeByUser.firstDelayMs + 1);
    expect((await changePassword(thief, patient.password, NEW_PASSWORD)).status).toBe(200);
  });
});
