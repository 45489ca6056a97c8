import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type TestApp } from '../../tests/support/app';
import { createTestApiKey, ProviderClient } from '../../tests/support/provider';
import { servedRoutes } from '../../tests/support/served-routes';
import { createApiKeyService } from './keys/api-key-service';
import { PROVIDER_API_PREFIX } from './openapi';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const keys = () => createApiKeyService({ db: app.db, clock: app.clock.now, config: app.config });

/** The provider routes the app serves, as OpenAPI writes them. */
function servedProviderRoutes(): string[] {
  const routes = servedRoutes(app.express, PROVIDER_API_PREFIX).map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
  return [...new Set(routes)].filter((route) => !/ \/(openapi\.json|docs)$/.test(route)).sort();
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document by a validator the project did not write', async () => {
    const response = await fetch(`${app.baseUrl}${PROVIDER_API_PREFIX}/openapi.json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every provider route the app serves, and nothing else', async () => {
    const document = await new ProviderClient(app.baseUrl, undefined).openApiDocument();
    const described = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .sort();
    expect(described).toEqual(servedProviderRoutes());
  });

  it('is readable as a page without a key, and the page runs no script', async () => {
    const response = await fetch(`${app.baseUrl}${PROVIDER_API_PREFIX}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('openapi.json');
    expect(html).not.toContain('<script');
  });
});

describe('who may call', () => {
  const unknownPath = `${PROVIDER_API_PREFIX}/no-such-call`;
  const call = (headers: Record<string, string> = {}) => fetch(`${app.baseUrl}${unknownPath}`, { headers });

  it('refuses a call without a key, with a malformed one and with an unknown one, and tells how to authenticate', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Bearer mpk_AAAAAAAA_${'A'.repeat(43)}` },
    ];
    for (const headers of attempts) {
      const response = await call(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      expect(await response.json()).toEqual({ code: 'API_KEY_INVALID' });
    }
  });

  it('admits a valid key (the unknown path then answers 404) and stamps its last use', async () => {
    const { key, id } = await createTestApiKey(app, ['orders:read']);
    const response = await call({ authorization: `Bearer ${key}` });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
    const row = await app.db('api_keys').where({ id }).first('last_used_at');
    expect(row.last_used_at).toBeInstanceOf(Date);
  });

  it('refuses a revoked key and an expired one, each by its own code', async () => {
    const revoked = await createTestApiKey(app, ['orders:read']);
    await keys().revoke(revoked.prefix);
    expect(await (await call({ authorization: `Bearer ${revoked.key}` })).json()).toEqual({ code: 'API_KEY_REVOKED' });

    const expiring = await createTestApiKey(app, ['orders:read'], { expiresAt: new Date(app.clock.now() + 60_000) });
    expect((await call({ authorization: `Bearer ${expiring.key}` })).status).toBe(404);
    app.clock.advance(61_000);
    const expired = await call({ authorization: `Bearer ${expiring.key}` });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ code: 'API_KEY_EXPIRED' });
  });

  it('holds a key to its calls per minute with 429 and Retry-After, and lets it go on in the next minute', async () => {
    const { key } = await createTestApiKey(app, ['orders:read'], { rateLimitPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call({ authorization: `Bearer ${key}` })).status);
    expect(statuses).toEqual([404, 404, 404]);
    const limited = await call({ authorization: `Bearer ${key}` });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual({ code: 'RATE_LIMITED', retryAfterSeconds: retryAfter });
    app.clock.advance(61_000);
    expect((await call({ authorization: `Bearer ${key}` })).status).toBe(404);
  });

  it('never lets a patient session act as the provider, nor a key act as a patient', async () => {
    const seed = await seedMinimal(app.db, app.config);
    const patient = app.client();
    expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
    const withSession = await call({ cookie: `portal.sid=${patient.sessionCookie}` });
    expect(withSession.status).toBe(401);

    const { key } = await createTestApiKey(app, ['patients:write', 'orders:read']);
    const profile = await fetch(`${app.baseUrl}/api/user/profile`, { headers: { authorization: `Bearer ${key}` } });
    expect(profile.status).toBe(401);
    expect(await profile.json()).toEqual({ code: 'UNAUTHENTICATED' });
  });

  it('keeps only a hash of each key, and no key reaches the log', async () => {
    const { key, id } = await createTestApiKey(app, ['orders:read']);
    await call({ authorization: `Bearer ${key}` });
    const row = await app.db('api_keys').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(key.slice(13));
    expect(row.secret_hash).toHaveLength(32);
    expect(app.logs.join('\n')).not.toContain(key.slice(13));
  });
});

describe('the staff audit', () => {
  it('writes every call, refused ones included, with key, action, status and address', async () => {
    const { key, id } = await createTestApiKey(app, ['orders:read']);
    await fetch(`${app.baseUrl}${PROVIDER_API_PREFIX}/no-such-call`, { headers: { authorization: `Bearer ${key}` } });
    await fetch(`${app.baseUrl}${PROVIDER_API_PREFIX}/no-such-call`);
    await expect
      .poll(() => app.db('staff_audit').where({ api_key_id: id }).first())
      .toMatchObject({
        actor: `key:${id}`,
        action: 'GET (unmatched)',
        status: 404,
        ip: expect.stringContaining('127.0.0.1'),
      });
    await expect.poll(() => app.db('staff_audit').where({ actor: 'unauthenticated', status: 401 }).first()).toBeDefined();
  });

  it('is append-only', async () => {
    const { key, id } = await createTestApiKey(app, ['orders:read']);
    await fetch(`${app.baseUrl}${PROVIDER_API_PREFIX}/no-such-call`, { headers: { authorization: `Bearer ${key}` } });
    await expect.poll(() => app.db('staff_audit').where({ api_key_id: id }).first()).toBeDefined();
    await expect(app.db('staff_audit').where({ api_key_id: id }).update({ status: 200 })).rejects.toThrow(/append-only/);
    await expect(app.db('staff_audit').where({ api_key_id: id }).delete()).rejects.toThrow(/append-only/);
  });
});
