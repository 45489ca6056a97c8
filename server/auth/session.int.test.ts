import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

/** The session id inside the signed cookie value `s:<id>.<signature>`. */
function sessionIdOf(cookie: string | undefined): string {
  return decodeURIComponent(cookie ?? '')
    .slice(2)
    .split('.')[0]!;
}

/** Another browser that somehow holds the given session cookie. */
function clientWithCookie(cookie: string | undefined) {
  const other = app.client();
  if (cookie) other.cookies.set('portal.sid', cookie);
  return other;
}

async function signedInPatient() {
  const client = app.client();
  expect((await client.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
  return client;
}

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site and ends with the browser (no expiry)', async () => {
    const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const [visitorCookie] = csrf.headers.getSetCookie();
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: visitorCookie!.split(';')[0]! },
      body: JSON.stringify({ accessCode: seed.guest.accessCode, birthAt: seed.guest.birthAt, portalTerms: true, policyTerms: true }),
    });
    expect(login.status).toBe(200);
    // Found by name: the login also sets the device cookie (device-cookie.int.test.ts checks that one).
    const sessionCookie = login.headers.getSetCookie().find((cookie) => cookie.startsWith('portal.sid='));
    expect(sessionCookie).toMatch(/^portal\.sid=s%3A[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(visitorCookie).toMatch(/^portal\.csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    for (const cookie of [sessionCookie, visitorCookie]) expect(cookie).not.toMatch(/Expires|Max-Age/i);
  });

  it('is not set for a visitor who only reads public data', async () => {
    const response = await fetch(`${app.baseUrl}/api/user/profile`);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe('GET /api/auth/session', () => {
  it('answers a visitor 200 with no user, sets no cookie and is never cached', async () => {
    const response = await fetch(`${app.baseUrl}/api/auth/session`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: null });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('cache-control')).toContain('no-store');
  });

  it('answers the signed-in patient with her profile, the same as /api/user/profile', async () => {
    const client = await signedInPatient();
    const profile = await client.get('/api/user/profile');
    const session = await client.get('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: profile.body });
  });

  it('answers no user after logout', async () => {
    const client = await signedInPatient();
    await client.logout();
    expect((await client.get('/api/auth/session')).body).toEqual({ user: null });
  });
});

describe('login renews the session id', () => {
  it('issues a new cookie and the id from before the login signs nobody in', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const before = client.sessionCookie;
    await client.loginPortal(seed.patient.login, seed.patient.password);

    expect(client.sessionCookie).toBeDefined();
    expect(sessionIdOf(client.sessionCookie)).not.toBe(sessionIdOf(before));
    expect((await clientWithCookie(before).get('/api/user/profile')).status).toBe(401);
    expect((await client.get('/api/user/profile')).status).toBe(200);
  });

  it('also for the result portal', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const before = client.sessionCookie;
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);

    expect(sessionIdOf(client.sessionCookie)).not.toBe(sessionIdOf(before));
    expect((await clientWithCookie(before).get('/api/user/profile')).status).toBe(401);
  });
});

describe('GET /api/auth/logout', () => {
  it('ends the session: profile answers 401 and the old cookie is worthless', async () => {
    const client = await signedInPatient();
    const signedInCookie = client.sessionCookie;
    const oldToken = client.csrfToken;

    const response = await client.logout();
    expect(response.status).toBe(200);
    expect(response.body.csrfToken).toEqual(expect.any(String));
    expect(response.body.csrfToken).not.toBe(oldToken);

    expect((await client.get('/api/user/profile')).status).toBe(401);
    expect((await clientWithCookie(signedInCookie).get('/api/user/profile')).status).toBe(401);
    const rows = await app.db('session').where({ sid: sessionIdOf(signedInCookie) });
    expect(rows).toHaveLength(0);
  });

  it('answers a token that works for the next login', async () => {
    const client = await signedInPatient();
    await client.logout();
    expect((await client.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
  });

  it('needs the CSRF token, so a cross-site link cannot sign anyone out', async () => {
    const client = await signedInPatient();
    const response = await client.get('/api/auth/logout', { withoutCsrf: true });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
    expect((await client.get('/api/user/profile')).status).toBe(200);
  });

  it('needs it however the path is spelled, since routing ignores case and a trailing slash', async () => {
    const client = await signedInPatient();
    for (const path of ['/api/auth/Logout', '/API/auth/logout/', '/api/auth/logout?x=1']) {
      expect((await client.get(path, { withoutCsrf: true })).status).toBe(403);
    }
    expect((await client.get('/api/user/profile')).status).toBe(200);
  });
});

describe('CSRF protection', () => {
  const body = { accessCode: 'Xk7mP2qa', birthAt: '1968-04-12', portalTerms: true, policyTerms: true };

  it('refuses a state-changing request without the token header', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const response = await client.post('/api/auth/login', body, { withoutCsrf: true });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
  });

  it('refuses a wrong token, and the token of another session', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const wrong = await client.post('/api/auth/login', body, { headers: { 'x-csrf-token': 'not-the-token' } });
    const other = app.client();
    const othersToken = await other.fetchCsrf();
    const borrowed = await client.post('/api/auth/login', body, { headers: { 'x-csrf-token': othersToken } });
    for (const response of [wrong, borrowed]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
    }
  });

  it('says COOKIES_BLOCKED with status 3 when the browser sent no session cookie at all', async () => {
    const client = app.client();
    const token = await client.fetchCsrf();
    client.cookies.clear(); // what a browser that refuses cookies does
    const response = await client.post('/api/auth/login', body, { headers: { 'x-csrf-token': token } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'COOKIES_BLOCKED', status: 3 });
  });

  it("refuses, token or not, a request another site's page sent (Fetch Metadata, else Origin)", async () => {
    const client = app.client();
    await client.fetchCsrf();
    const fromElsewhere: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://portal.example.attacker.test' },
      { origin: 'null' },
    ];
    for (const headers of fromElsewhere) {
      const response = await client.post('/api/auth/login', body, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
    }
  });

  it("lets the portal's own pages through, and programs that name no origin", async () => {
    const fromHere: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'https://ignored.test' },
      { origin: app.baseUrl },
      {},
    ];
    for (const headers of fromHere) {
      const client = app.client();
      await client.fetchCsrf();
      const response = await client.post('/api/auth/login', body, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('keeps the same token for the life of a session', async () => {
    const client = app.client();
    const first = await client.fetchCsrf();
    expect(await client.fetchCsrf()).toBe(first);
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);
    const signedIn = client.csrfToken;
    expect(signedIn).not.toBe(first);
    expect(await client.fetchCsrf()).toBe(signedIn);
  });

  it("refuses a visitor's token with a nonce cookie it was not made from", async () => {
    const client = app.client();
    const token = await client.fetchCsrf();
    const planted = app.client();
    planted.cookies.set('portal.csrf', 'A'.repeat(43));
    const forged = await planted.post('/api/auth/login', body, { headers: { 'x-csrf-token': token } });
    client.cookies.set('portal.csrf', 'A'.repeat(43));
    const swapped = await client.post('/api/auth/login', body);
    for (const response of [forged, swapped]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
    }
  });
});

describe('anonymous calls cost no storage', () => {
  const sessionRows = async () => Number((await app.db('session').count({ n: '*' }))[0]!.n);

  it('stores no session for a visitor: tokens, failed logins and a sign-out leave the table as it was', async () => {
    const signedIn = await signedInPatient();
    const before = await sessionRows();
    for (let i = 0; i < 50; i += 1) await app.client().fetchCsrf();
    const visitor = app.client();
    await visitor.fetchCsrf();
    expect((await visitor.loginPortal(seed.patient.login, 'not her password')).status).toBe(401);
    expect(await sessionRows()).toBe(before);

    await signedIn.logout();
    expect(await sessionRows()).toBe(before - 1);
    // What the sign-out handed her is a visitor's token; it works for her next login.
    expect((await signedIn.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
    expect(await sessionRows()).toBe(before);
  });
});

describe('server-side timeouts (DECISIONS.md 7)', () => {
  it('ends a session idle for more than 15 minutes and deletes it', async () => {
    const client = await signedInPatient();
    const sid = sessionIdOf(client.sessionCookie);
    app.clock.advance(15 * 60_000 + 1_000);

    expect((await client.get('/api/user/profile')).status).toBe(401);
    expect(await app.db('session').where({ sid })).toHaveLength(0);
  });

  it('keeps a session alive while it is used', async () => {
    const client = await signedInPatient();
    for (let i = 0; i < 4; i++) {
      app.clock.advance(10 * 60_000);
      expect((await client.get('/api/user/profile')).status).toBe(200);
    }
  });

  it('ends any session 8 hours after login, however busy', async () => {
    const client = await signedInPatient();
    let minutes = 0;
    while (minutes + 14 < 8 * 60) {
      app.clock.advance(14 * 60_000);
      minutes += 14;
      expect((await client.get('/api/user/profile')).status).toBe(200);
    }
    app.clock.advance(14 * 60_000);
    expect((await client.get('/api/user/profile')).status).toBe(401);
  });

  it('sends a form from a signed-in page left open past the timeout back with INVALID_CSRF_TOKEN', async () => {
    const client = await signedInPatient();
    app.clock.advance(16 * 60_000);
    const response = await client.get('/api/auth/logout');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
    // A fresh token from the same browser works again, as a visitor's.
    await client.fetchCsrf();
    expect((await client.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
  });

  it("lets a visitor's login form left open past the timeout through: she had no session to end", async () => {
    const client = app.client();
    await client.fetchCsrf();
    app.clock.advance(16 * 60_000);
    expect((await client.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
  });
});
