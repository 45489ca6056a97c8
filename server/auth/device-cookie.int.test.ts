import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultThrottlePolicy, type ThrottlePolicy } from './throttle-policy';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient, type TestResponse } from '../../tests/support/app';
import { insertAccount, insertPerson, insertScreening } from '../../tests/support/seed-minimal';

/**
 * OWASP's device cookies (issue 16): a guesser elsewhere fills the shared per-birth-date and
 * per-login buckets, and the patient still signs in from the browser she used before.
 */
const roomy = { freeFailures: 1_000, firstDelayMs: 1_000, maxDelayMs: 30_000, windowMs: 15 * 60_000 };
const policy: ThrottlePolicy = {
  ...defaultThrottlePolicy,
  // The guesser hops IPs, so only the shared buckets catch him.
  resultByIp: roomy,
  resultGlobal: roomy,
  portalByIp: roomy,
  resultByBirthDate: { freeFailures: 4, firstDelayMs: 60_000, maxDelayMs: 5 * 60_000, windowMs: 15 * 60_000 },
  portalByLogin: { freeFailures: 2, firstDelayMs: 60_000, maxDelayMs: 5 * 60_000, windowMs: 15 * 60_000 },
  resultByDevice: { freeFailures: 3, firstDelayMs: 2_000, maxDelayMs: 60_000, windowMs: 15 * 60_000 },
  portalByDevice: { freeFailures: 3, firstDelayMs: 2_000, maxDelayMs: 60_000, windowMs: 15 * 60_000 },
};

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp({ throttlePolicy: policy });
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

function from(ip: string) {
  return { 'x-forwarded-for': ip };
}

function expectTooMany(response: TestResponse, seconds?: number) {
  expect(response.status).toBe(429);
  expect(response.body.code).toBe('TOO_MANY_ATTEMPTS');
  if (seconds !== undefined) expect(response.headers.get('retry-after')).toBe(String(seconds));
}

/** A browser that signed in once and out again: it keeps only its device cookie. */
async function knownBrowser(signIn: (client: TestClient) => Promise<TestResponse>): Promise<TestClient> {
  const client = app.client();
  expect((await signIn(client)).status).toBe(200);
  expect(client.cookies.get('portal.device')).toBeDefined();
  expect((await client.logout()).status).toBe(200);
  return client;
}

async function newPatient(tag: string) {
  const personId = await insertPerson(app.db, { firstName: 'Olga', lastName: tag, birthAt: '1966-06-16' });
  const login = `${tag}@example.com`;
  const password = `Haslo!${tag}1`;
  await insertAccount(app.db, personId, { email: login, password });
  return { login, password };
}

describe('the device cookie', () => {
  it('is set at sign-in: HttpOnly, SameSite=Lax, for a year, sent only to /api/auth, nothing personal in it', async () => {
    const response = await app.client().loginPortal(seed.mustChange.login, seed.mustChange.password, from('203.0.113.1'));
    expect(response.status).toBe(200);
    const setCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('portal.device='))!;
    expect(setCookie).toMatch(/; Max-Age=31536000;/);
    expect(setCookie).toMatch(/; Path=\/api\/auth;/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    const value = setCookie.split(';')[0]!.slice('portal.device='.length);
    expect(value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(value.toLowerCase()).not.toContain('ewa');
  });
});

describe('result login while someone guesses codes for the same birth date', () => {
  it('lets the patient in from her known browser while fresh browsers wait', async () => {
    const { accessCode, birthAt } = seed.guest;
    const hers = await knownBrowser((client) => client.loginResult(accessCode, birthAt, from('203.0.113.10')));

    const attacker = app.client();
    for (let i = 0; i < 5; i++) {
      expect((await attacker.loginResult(`Zz00000${i}`, birthAt, from(`192.0.2.${10 + i}`))).status).toBe(401);
    }
    expectTooMany(await attacker.loginResult('Zz000009', birthAt, from('192.0.2.19')), 60);
    // A browser without her device cookie shares the birth date's bucket and waits (OWASP's design).
    expectTooMany(await app.client().loginResult(accessCode, birthAt, from('203.0.113.11')), 60);

    expect((await hers.loginResult(accessCode, birthAt, from('203.0.113.10'))).status).toBe(200);
    expect((await hers.get('/api/auth/session')).body.user).not.toBeNull();
    // The cookie was renewed and still vouches for her, however long the guessing goes on.
    await hers.logout();
    expectTooMany(await attacker.loginResult('Zz000010', birthAt, from('192.0.2.20')));
    expect((await hers.loginResult(accessCode, birthAt, from('203.0.113.12'))).status).toBe(200);
  });

  it('gives a guesser with a cookie of his own screening no way around the birth date bucket', async () => {
    const personId = await insertPerson(app.db, { firstName: 'Jan', lastName: 'Zgadywacz', birthAt: '1950-02-02' });
    await insertScreening(app.db, app.config, personId, { accessCode: 'Own1code', examinedAt: '2024-01-01T09:00:00Z' });
    const guesser = await knownBrowser((client) => client.loginResult('Own1code', '1950-02-02', from('192.0.2.30')));
    for (let i = 0; i < 5; i++) {
      expect((await guesser.loginResult(`Yy00000${i}`, '1950-02-02', from(`192.0.2.${31 + i}`))).status).toBe(401);
    }
    expectTooMany(await guesser.loginResult('Yy000009', '1950-02-02', from('192.0.2.39')), 60);
  });
});

describe('patient login while someone guesses her password', () => {
  it('lets the patient in from her known browser while fresh browsers wait, and audits the guesses', async () => {
    const { login, password, userId } = seed.patient;
    const hers = await knownBrowser((client) => client.loginPortal(login, password, from('203.0.113.20')));

    const attacker = app.client();
    for (let i = 0; i < 3; i++) {
      expect((await attacker.loginPortal(login, `guess-${i}`, from(`192.0.2.${40 + i}`))).status).toBe(401);
    }
    expectTooMany(await attacker.loginPortal(login, 'guess-9', from('192.0.2.49')), 60);
    expectTooMany(await app.client().loginPortal(login, password, from('203.0.113.21')), 60);

    expect((await hers.loginPortal(login, password, from('203.0.113.20'))).status).toBe(200);
    expect((await hers.get('/api/user/profile')).status).toBe(200);

    const audited = await app
      .db('audit_entries')
      .where({ type: 'LOGIN_PORTAL_UNAUTHORIZED', user_id: userId, description: 'wrong_password' });
    expect(audited).toHaveLength(3);
  });

  it('gives no way around with a forged cookie or a cookie of another login', async () => {
    const patient = await newPatient('forged');
    const other = await newPatient('other');
    const hers = await knownBrowser((client) => client.loginPortal(patient.login, patient.password, from('203.0.113.30')));
    const othersBrowser = await knownBrowser((client) => client.loginPortal(other.login, other.password, from('203.0.113.31')));

    for (let i = 0; i < 3; i++) await app.client().loginPortal(patient.login, `guess-${i}`, from(`192.0.2.${50 + i}`));

    const forged = app.client();
    const genuine = hers.cookies.get('portal.device')!;
    forged.cookies.set('portal.device', `${genuine.slice(0, -1)}${genuine.endsWith('A') ? 'B' : 'A'}`);
    expectTooMany(await forged.loginPortal(patient.login, patient.password, from('203.0.113.32')));
    expectTooMany(await othersBrowser.loginPortal(patient.login, patient.password, from('203.0.113.31')));
    // Case does not matter for a login, so the cookie still vouches for her.
    expect((await hers.loginPortal(patient.login.toUpperCase(), patient.password, from('203.0.113.30'))).status).toBe(200);
  });

  it('keeps entries of several people on one shared browser', async () => {
    const first = await newPatient('shared-a');
    const second = await newPatient('shared-b');
    const shared = await knownBrowser((client) => client.loginPortal(first.login, first.password, from('203.0.113.40')));
    expect((await shared.loginPortal(second.login, second.password, from('203.0.113.40'))).status).toBe(200);
    await shared.logout();

    for (let i = 0; i < 3; i++) await app.client().loginPortal(first.login, `guess-${i}`, from(`192.0.2.${60 + i}`));
    expectTooMany(await app.client().loginPortal(first.login, first.password, from('203.0.113.41')));
    expect((await shared.loginPortal(first.login, first.password, from('203.0.113.40'))).status).toBe(200);
  });
});

describe('a known browser that keeps failing', () => {
  it('is held back itself after its free failures, even with the right password, then let in', async () => {
    const patient = await newPatient('failing-device');
    const device = await knownBrowser((client) => client.loginPortal(patient.login, patient.password, from('203.0.113.50')));
    for (let i = 0; i < 4; i++) {
      expect((await device.loginPortal(patient.login, `typo-${i}`, from('203.0.113.50'))).status).toBe(401);
    }
    expectTooMany(await device.loginPortal(patient.login, patient.password, from('203.0.113.50')), 2);
    // Its failures were its own: another browser is not held back by them.
    expect((await app.client().loginPortal(patient.login, patient.password, from('203.0.113.51'))).status).toBe(200);

    app.clock.advance(2_001);
    expect((await device.loginPortal(patient.login, patient.password, from('203.0.113.50'))).status).toBe(200);
  });

  it('holds a result-login device back the same way', async () => {
    const accessCode = 'Ewa3code'; // the must-change patient's screening (seed-minimal.ts)
    const birthAt = '1975-01-02';
    const device = await knownBrowser((client) => client.loginResult(accessCode, birthAt, from('203.0.113.60')));
    for (let i = 0; i < 4; i++) {
      expect((await device.loginResult(accessCode, `1975-01-1${i}`, from('203.0.113.60'))).status).toBe(401);
    }
    expectTooMany(await device.loginResult(accessCode, birthAt, from('203.0.113.60')), 2);
  });
});
