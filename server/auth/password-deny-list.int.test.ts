import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, sha256Hex, startTestApp, type TestApp, type TestClient } from '../../tests/support/app';
import { insertAccount, insertPerson } from '../../tests/support/seed-minimal';
import { issuePasswordLink } from '../password-reset/service';

/**
 * Issue 16: a client that skips the form (and its rule in common/validation/password.ts) sends
 * the SHA-256 of a breached password itself; the server refuses it on both routes that set one.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

const STRONG_PASSWORD = 'Kalafior na parze 7';
/** The head of the list, one the form accepts (12+ characters) and a capitalised entry. */
const BREACHED = ['password', 'splintercell', 'Monkey123'];

let accounts = 0;
async function newPatient() {
  accounts += 1;
  const login = `lista${accounts}@example.com`;
  const password = `Pierwsze!Haslo${accounts}`;
  const personId = await insertPerson(app.db, { firstName: 'Halina', lastName: `Próbna${accounts}`, birthAt: '1964-05-06' });
  const userId = await insertAccount(app.db, personId, { email: login, password });
  return { login, password, userId };
}

async function signIn(login: string, password: string): Promise<TestClient> {
  const client = app.client();
  expect((await client.loginPortal(login, password)).status).toBe(200);
  return client;
}

const storedHash = async (userId: number): Promise<string> => (await app.db('users').where({ id: userId }).first()).password_hash;
const changes = (userId: number) => app.db('audit_entries').where({ user_id: userId, type: 'USER_PASSWORD_CHANGE' });

describe('PATCH /api/auth/password with a breached new password', () => {
  it.each(BREACHED)('refuses sha256(%s) on newPassword, writes nothing and keeps the old password', async (breached) => {
    const patient = await newPatient();
    const client = await signIn(patient.login, patient.password);
    const hashBefore = await storedHash(patient.userId);

    const response = await client.request('PATCH', '/api/auth/password', {
      body: { oldPassword: sha256Hex(patient.password), newPassword: sha256Hex(breached), confirm: sha256Hex(breached) },
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path: 'newPassword', message: 'validation.password.common' }] });
    expect(await storedHash(patient.userId)).toBe(hashBefore);
    expect(await changes(patient.userId)).toEqual([]);
    expect((await client.get('/api/user/profile')).status).toBe(200);
    await signIn(patient.login, patient.password);
  });

  it('still takes a strong password afterwards', async () => {
    const patient = await newPatient();
    const client = await signIn(patient.login, patient.password);
    const change = (password: string) =>
      client.request('PATCH', '/api/auth/password', {
        body: { oldPassword: sha256Hex(patient.password), newPassword: sha256Hex(password), confirm: sha256Hex(password) },
      });

    expect((await change('123456')).status).toBe(400);
    expect((await change(STRONG_PASSWORD)).status).toBe(200);
    await signIn(patient.login, STRONG_PASSWORD);
  });
});

describe('PATCH /api/auth/password/token with a breached password', () => {
  async function resetLink(userId: number): Promise<string> {
    const { link } = await issuePasswordLink(
      { db: app.db, config: app.config, clock: app.clock.now },
      { userId, channel: 'email', purpose: 'reset', lifetimeMs: 60 * 60_000 },
    );
    return link.split('/').at(-1)!;
  }

  async function setPassword(token: string, password: string) {
    const client = app.client();
    await client.fetchCsrf();
    return client.request('PATCH', '/api/auth/password/token', {
      body: { token, password: sha256Hex(password), confirm: sha256Hex(password) },
    });
  }

  it.each(BREACHED)('refuses sha256(%s) on password; the link and the old password keep working', async (breached) => {
    const patient = await newPatient();
    const token = await resetLink(patient.userId);
    const hashBefore = await storedHash(patient.userId);

    const response = await setPassword(token, breached);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path: 'password', message: 'validation.password.common' }] });
    expect(await storedHash(patient.userId)).toBe(hashBefore);
    expect(await changes(patient.userId)).toEqual([]);
    await signIn(patient.login, patient.password);

    const verifier = app.client();
    await verifier.fetchCsrf();
    expect((await verifier.post('/api/auth/password/token', { token })).status).toBe(200);
    expect((await setPassword(token, STRONG_PASSWORD)).status).toBe(200);
    await signIn(patient.login, STRONG_PASSWORD);
  });

  it('answers a dead link before judging the password', async () => {
    const response = await setPassword('0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60', 'password');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'INVALID_TOKEN' });
  });
});
