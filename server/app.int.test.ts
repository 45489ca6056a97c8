import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, sha256Hex, startTestApp, type MinimalSeed, type TestApp } from '../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  // Every request line is written at debug: the log checks below read them all.
  app = await startTestApp({ config: { logLevel: 'debug' } });
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

describe('every /api answer', () => {
  it('carries Cache-Control: no-store, errors included', async () => {
    const client = app.client();
    const answers = [await client.get('/api/auth/csrf'), await client.get('/api/user/profile'), await client.get('/api/nothing-here')];
    for (const response of answers) expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('carries the security headers', async () => {
    const response = await app.client().get('/api/auth/csrf');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});

describe('error answers', () => {
  it('answers an unknown API path with 404 NOT_FOUND as JSON', async () => {
    const response = await app.client().get('/api/no/such/call', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with 400 BAD_JSON', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const response = await client.request('POST', '/api/auth/login', {
      rawBody: '{"accessCode": "Xk7',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'BAD_JSON' });
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const response = await client.post('/api/auth/login', { accessCode: 'x'.repeat(100_000) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers an unexpected failure with 500 INTERNAL and nothing else, and logs it with the request id', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    await app.db.raw('ALTER TABLE users RENAME TO users_away');
    let response;
    try {
      response = await client.get('/api/user/profile');
    } finally {
      await app.db.raw('ALTER TABLE users_away RENAME TO users');
    }
    expect(response.status).toBe(500);
    expect(response.text).toBe('{"code":"INTERNAL"}');

    const errorLine = app.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'unhandled error');
    expect(errorLine).toMatchObject({ level: 50, reqId: expect.any(String), err: { message: expect.stringContaining('users') } });
  });
});

describe('the log', () => {
  it('holds method, route, status and duration of each request, and no credential or personal data', async () => {
    const client = app.client();
    const typedPassword = 'Zle!Haslo99';
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);
    await client.loginResult('Qq1Qq1Qq', '1950-10-10');
    await client.loginPortal(seed.patient.login, typedPassword);
    await client.loginPortal(seed.patient.login, seed.patient.password);
    await client.get('/api/user/profile');
    await client.get(`/api/screening?id=${seed.patient.olderScreeningId}`);

    const text = app.logs.join('\n');
    const secrets = [
      seed.guest.accessCode,
      'Qq1Qq1Qq',
      seed.guest.birthAt,
      '1950-10-10',
      seed.patient.login,
      typedPassword,
      sha256Hex(typedPassword),
      seed.patient.password,
      sha256Hex(seed.patient.password),
      'Testowa',
      decodeURIComponent(client.sessionCookie!),
      client.sessionCookie!,
      client.csrfToken!,
      `id=${seed.patient.olderScreeningId}`,
    ];
    for (const secret of secrets) expect(text).not.toContain(secret);

    const requestLines = app.logs.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requestLines.length).toBeGreaterThan(5);
    for (const entry of requestLines) {
      expect(Object.keys(entry).sort()).toEqual(['durationMs', 'level', 'method', 'msg', 'path', 'reqId', 'status', 'time']);
    }
    expect(requestLines.map((entry) => entry.path)).toContain('/api/auth/portal/login');
    expect(requestLines.map((entry) => entry.path)).toContain('/api/screening');
  });
});
