import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultThrottlePolicy, type ThrottlePolicy } from './throttle-policy';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

/** Small numbers so a test reaches the waits in a few requests; the clock is moved, not slept. */
const roomy = { freeFailures: 1_000, firstDelayMs: 1_000, maxDelayMs: 30_000, windowMs: 15 * 60_000 };
const policy: ThrottlePolicy = {
  // Buckets of other flows keep their real numbers; these tests tune the login ones.
  ...defaultThrottlePolicy,
  resultByIp: { freeFailures: 2, firstDelayMs: 2_000, maxDelayMs: 8_000, windowMs: 15 * 60_000 },
  resultByBirthDate: { freeFailures: 4, firstDelayMs: 5_000, maxDelayMs: 60_000, windowMs: 15 * 60_000 },
  resultGlobal: roomy,
  portalByIp: { freeFailures: 10, firstDelayMs: 2_000, maxDelayMs: 8_000, windowMs: 15 * 60_000 },
  portalByLogin: { freeFailures: 2, firstDelayMs: 2_000, maxDelayMs: 8_000, windowMs: 15 * 60_000 },
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

function expectTooMany(response: { status: number; body: unknown; headers: Headers }, seconds: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: seconds });
  expect(response.headers.get('retry-after')).toBe(String(seconds));
}

describe('patient login throttling', () => {
  it('lets the free failures through, then makes the caller wait, even with the right password', async () => {
    const client = app.client();
    const ip = from('192.0.2.10');
    expect((await client.loginPortal(seed.patient.login, 'wrong-1', ip)).status).toBe(401);
    expect((await client.loginPortal(seed.patient.login, 'wrong-2', ip)).status).toBe(401);
    // The third failure is past the allowance of 2: it is still answered, and starts a 2 s wait.
    expect((await client.loginPortal(seed.patient.login, 'wrong-3', ip)).status).toBe(401);

    expectTooMany(await client.loginPortal(seed.patient.login, seed.patient.password, ip), 2);
    expect((await client.get('/api/user/profile')).status).toBe(401);
  });

  it('doubles the wait with each further failure and lets the caller in once it has passed', async () => {
    const client = app.client();
    const ip = from('192.0.2.11');
    const login = seed.mustChange.login;
    for (const attempt of ['w1', 'w2', 'w3']) await client.loginPortal(login, attempt, ip);
    app.clock.advance(2_001);
    expect((await client.loginPortal(login, 'w4', ip)).status).toBe(401);
    expectTooMany(await client.loginPortal(login, seed.mustChange.password, ip), 4);

    app.clock.advance(4_001);
    expect((await client.loginPortal(login, seed.mustChange.password, ip)).status).toBe(200);
  });

  it('counts a burst of concurrent guesses as strictly as the same guesses one by one', async () => {
    const ip = from('192.0.2.12');
    const login = 'burst@example.com';
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => app.client().loginPortal(login, `guess-${i}`, ip)));
    const statuses = answers.map((answer) => answer.status).sort();
    // Allowance 2, plus the one failure that starts the wait: exactly as in the sequential case.
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    // Only the answered guesses were failures to audit; the others learnt nothing.
    const audited = await app.db('audit_entries').where({ type: 'LOGIN_PORTAL_UNAUTHORIZED', ip: '192.0.2.12' });
    expect(audited).toHaveLength(3);
  });

  it('counts per login across IPs: a guesser cannot dodge the login bucket by hopping', async () => {
    const client = app.client();
    const login = seed.disabled.login;
    for (const [index, ip] of ['192.0.2.20', '192.0.2.21', '192.0.2.22'].entries()) {
      expect((await client.loginPortal(login, `hop-${index}`, from(ip))).status).toBe(401);
    }
    expectTooMany(await client.loginPortal(login, 'hop-3', from('192.0.2.23')), 2);
    // Another account from a fresh IP is not held up.
    expect((await client.loginPortal('someone.else@example.com', 'x', from('192.0.2.24'))).status).toBe(401);
  });

  it('clears the counts after a successful login', async () => {
    const client = app.client();
    const ip = from('192.0.2.30');
    const { login, password } = seed.mustChange; // its counts were cleared by the login above
    await client.loginPortal(login, 'wrong-a', ip);
    await client.loginPortal(login, 'wrong-b', ip);
    expect((await client.loginPortal(login, password, ip)).status).toBe(200);
    // Two more failures are free again instead of being the 3rd and 4th of the window.
    await client.loginPortal(login, 'wrong-c', ip);
    await client.loginPortal(login, 'wrong-d', ip);
    expect((await client.loginPortal(login, password, ip)).status).toBe(200);
  });
});

describe('result login throttling', () => {
  it('holds an IP after its free failures, with Retry-After, before checking the code', async () => {
    const client = app.client();
    const ip = from('192.0.2.40');
    for (const code of ['Aa000001', 'Aa000002', 'Aa000003']) {
      expect((await client.loginResult(code, '1990-01-01', ip)).status).toBe(401);
    }
    expectTooMany(await client.loginResult(seed.guest.accessCode, seed.guest.birthAt, ip), 2);

    app.clock.advance(2_001);
    expect((await client.loginResult(seed.guest.accessCode, seed.guest.birthAt, ip)).status).toBe(200);
  });

  it('holds a birth date guessed from many IPs, and only that birth date', async () => {
    const client = app.client();
    const birthAt = '1955-05-05';
    for (let i = 0; i < 5; i++) {
      expect((await client.loginResult(`Bb00000${i}`, birthAt, from(`192.0.2.${50 + i}`))).status).toBe(401);
    }
    expectTooMany(await client.loginResult('Bb000009', birthAt, from('192.0.2.60')), 5);
    expect((await client.loginResult('Bb000009', '1955-05-06', from('192.0.2.61'))).status).toBe(401);
  });

  it('does not count a request refused for its form', async () => {
    const client = app.client();
    const ip = from('192.0.2.70');
    for (let i = 0; i < 5; i++) {
      expect((await client.loginResult('', '1990-01-01', ip)).status).toBe(400);
    }
    expect((await client.loginResult('Cc000001', '1990-01-01', ip)).status).toBe(401);
  });
});

describe('global result-login bucket', () => {
  let tight: TestApp;
  beforeAll(async () => {
    tight = await startTestApp({
      throttlePolicy: {
        ...policy,
        resultByIp: roomy,
        resultByBirthDate: roomy,
        resultGlobal: { freeFailures: 3, firstDelayMs: 1_000, maxDelayMs: 30_000, windowMs: 60_000 },
      },
    });
  });
  afterAll(() => tight?.close());

  it('slows every result login for a short while once failures pile up from everywhere', async () => {
    const client = tight.client();
    for (let i = 0; i < 4; i++) {
      expect((await client.loginResult(`Dd00000${i}`, `1970-01-0${i + 1}`, from(`192.0.2.${80 + i}`))).status).toBe(401);
    }
    expectTooMany(await client.loginResult('Dd000009', '1980-02-02', from('192.0.2.90')), 1);

    tight.clock.advance(1_001);
    expect((await client.loginResult('Dd000009', '1980-02-02', from('192.0.2.90'))).status).toBe(401);
  });

  it('starts counting over when the window has passed', async () => {
    const client = tight.client();
    tight.clock.advance(61_000);
    for (let i = 0; i < 3; i++) {
      expect((await client.loginResult(`Ee00000${i}`, '1971-01-01', from(`192.0.2.${100 + i}`))).status).toBe(401);
    }
    expect((await client.loginResult('Ee000009', '1971-01-01', from('192.0.2.110'))).status).toBe(401);
  });
});

describe('several sign-ins of one account at once', () => {
  it('lets each through, though every success clears the buckets the others are counted in', async () => {
    // Allowances large enough to admit them all, so only the overlap itself is tried. It once answered 500 on PostgreSQL (a bucket cleared between the
    // attempt's insert and its locking read).
    const roomyApp = await startTestApp({ throttlePolicy: { ...policy, portalByIp: roomy, portalByLogin: roomy } });
    try {
      const { login, password } = (await seedMinimal(roomyApp.db, roomyApp.config)).patient;
      // Eight tabs signing in over and over, so admissions keep meeting other sign-ins' successes.
      const tab = async () => {
        const statuses: number[] = [];
        for (let round = 0; round < 5; round++)
          statuses.push((await roomyApp.client().loginPortal(login, password, from('192.0.2.40'))).status);
        return statuses;
      };
      const statuses = (await Promise.all(Array.from({ length: 8 }, tab))).flat();
      expect(statuses).toEqual(Array(40).fill(200));
    } finally {
      await roomyApp.close();
    }
  });
});
