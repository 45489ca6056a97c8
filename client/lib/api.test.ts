import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, parseRetryAfter, resetCsrfToken } from './api';

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A fake server: answers are taken in order; every request is recorded. */
function fakeServer(...answers: Array<Response | Error>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${url}`);
    if (answer instanceof Error) throw answer;
    return answer;
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

beforeEach(() => resetCsrfToken());
afterEach(() => vi.unstubAllGlobals());

describe('api requests', () => {
  it('sends a GET without a CSRF token and returns the JSON body', async () => {
    const calls = fakeServer(json(200, { id: 7, createdAt: '2024-01-02T10:00:00Z' }));
    await expect(api.get('/screening', { query: { id: 7, type: undefined } })).resolves.toEqual({
      id: 7,
      createdAt: '2024-01-02T10:00:00Z',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/screening?id=7');
    expect(calls[0]?.headers['X-CSRF-Token']).toBeUndefined();
  });

  it('fetches the CSRF token once before the first state-changing request and reuses it', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'tok-1' }), json(200, { ok: 1 }), json(200, { ok: 2 }));
    await api.post('/contact/create', { content: 'a' });
    await api.patch('/auth/password', { oldPassword: 'x' });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/auth/csrf',
      'POST /api/contact/create',
      'PATCH /api/auth/password',
    ]);
    expect(calls[1]?.headers['X-CSRF-Token']).toBe('tok-1');
    expect(calls[1]?.headers['Content-Type']).toBe('application/json');
    expect(calls[1]?.body).toEqual({ content: 'a' });
    expect(calls[2]?.headers['X-CSRF-Token']).toBe('tok-1');
  });

  it('shares one token request between concurrent first requests', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'tok-1' }), json(200, {}), json(200, {}));
    await Promise.all([api.post('/a'), api.post('/b')]);
    expect(calls.filter((c) => c.url === '/api/auth/csrf')).toHaveLength(1);
  });

  it('sends the token on GET /auth/logout and adopts the fresh token of the answer', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'anonymous' }), json(200, { csrfToken: 'after-logout' }), json(200, {}));
    await api.get('/auth/logout');
    await api.post('/auth/login', {});
    expect(calls[1]?.headers['X-CSRF-Token']).toBe('anonymous');
    expect(calls[2]?.headers['X-CSRF-Token']).toBe('after-logout');
  });

  it('replaces the token with the one a login answers', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'before' }), json(200, { user: { id: 1 }, csrfToken: 'renewed' }), json(200, {}));
    await api.post('/auth/portal/login', {});
    await api.post('/audit/browser', {});
    expect(calls[2]?.headers['X-CSRF-Token']).toBe('renewed');
  });

  it('refetches a stale token once and retries the request', async () => {
    const calls = fakeServer(
      json(200, { csrfToken: 'stale' }),
      json(403, { code: 'INVALID_CSRF_TOKEN' }),
      json(200, { csrfToken: 'fresh' }),
      json(200, { done: true }),
    );
    await expect(api.post('/survey', { a: 1 })).resolves.toEqual({ done: true });
    expect(calls.map((c) => c.headers['X-CSRF-Token'])).toEqual([undefined, 'stale', undefined, 'fresh']);
    expect(calls[3]?.body).toEqual({ a: 1 });
  });

  it('gives up after one retry with INVALID_CSRF_TOKEN', async () => {
    const calls = fakeServer(
      json(200, { csrfToken: 'a' }),
      json(403, { code: 'INVALID_CSRF_TOKEN' }),
      json(200, { csrfToken: 'b' }),
      json(403, { code: 'INVALID_CSRF_TOKEN' }),
    );
    const error = await api.post('/survey').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'INVALID_CSRF_TOKEN' });
    expect(calls).toHaveLength(4);
  });

  it('does not retry other 403 answers', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'a' }), json(403, { code: 'ACCOUNT_DISABLED' }));
    await expect(api.post('/auth/portal/login', {})).rejects.toMatchObject({ status: 403, code: 'ACCOUNT_DISABLED' });
    expect(calls).toHaveLength(2);
  });

  it('returns files as a Blob', async () => {
    fakeServer(new Response(new Blob(['%PDF-1.7']), { status: 200, headers: { 'Content-Type': 'application/pdf' } }));
    const blob = await api.getBlob('/screening/download-result', { query: { documentId: 3 } });
    expect(await blob.text()).toBe('%PDF-1.7');
  });

  it('answers undefined for 204 No Content', async () => {
    fakeServer(new Response(null, { status: 204 }));
    await expect(api.get('/screening/survey')).resolves.toBeUndefined();
  });
});

describe('requests the pre-paint script sent early (index.html)', () => {
  afterEach(() => {
    delete (globalThis as { portalEarlyRequests?: unknown }).portalEarlyRequests;
    vi.restoreAllMocks();
  });

  function sentEarly(url: string, answer: Response) {
    (globalThis as { portalEarlyRequests?: Record<string, Promise<Response>> }).portalEarlyRequests = { [url]: Promise.resolve(answer) };
  }

  it('takes over the answer of the same GET once, then asks the server', async () => {
    sentEarly('/api/user/profile', json(200, { id: 1, early: true }));
    const calls = fakeServer(json(200, { id: 1, early: false }));
    expect(await api.get('/user/profile')).toEqual({ id: 1, early: true });
    expect(calls).toHaveLength(0);
    expect(await api.get('/user/profile')).toEqual({ id: 1, early: false });
    expect(calls).toHaveLength(1);
  });

  it('turns an early refusal into the same ApiError', async () => {
    sentEarly('/api/user/profile', json(401, { code: 'UNAUTHORIZED' }));
    fakeServer();
    await expect(api.get('/user/profile')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('never answers another URL or another method with it', async () => {
    sentEarly('/api/banners?type=top-placement', json(200, ['early']));
    const calls = fakeServer(json(200, ['bottom']), json(200, { csrfToken: 't' }), json(200, { ok: true }));
    expect(await api.get('/banners', { query: { type: 'bottom-placement' } })).toEqual(['bottom']);
    expect(await api.delete('/banners?type=top-placement')).toEqual({ ok: true });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /api/banners?type=bottom-placement',
      'GET /api/auth/csrf',
      'DELETE /api/banners?type=top-placement',
    ]);
  });

  it('asks the server itself when the script decided not to send it', async () => {
    (globalThis as { portalEarlyRequests?: Record<string, Promise<null>> }).portalEarlyRequests = {
      '/api/screening/result': Promise.resolve(null),
    };
    const calls = fakeServer(json(200, { screening: { id: 4 } }));
    expect(await api.get('/screening/result')).toEqual({ screening: { id: 4 } });
    expect(calls.map((call) => call.url)).toEqual(['/api/screening/result']);
  });

  it('drops an answer not taken in the first 30 s of the page', async () => {
    sentEarly('/api/user/profile', json(200, { early: true }));
    vi.spyOn(performance, 'now').mockReturnValue(31_000);
    fakeServer(json(200, { early: false }));
    expect(await api.get('/user/profile')).toEqual({ early: false });
  });
});

describe('api errors', () => {
  it('keeps the validation issues of a 400', async () => {
    fakeServer(
      json(200, { csrfToken: 'a' }),
      json(400, { code: 'VALIDATION', issues: [{ path: 'accessCode', message: 'validation.accessCode.required' }] }),
    );
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION',
      issues: [{ path: 'accessCode', message: 'validation.accessCode.required' }],
    });
  });

  it('takes the wait from the body of a 429', async () => {
    fakeServer(json(200, { csrfToken: 'a' }), json(429, { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 90 }, { 'Retry-After': '5' }));
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 90 });
  });

  it('falls back to the Retry-After header for the wait', async () => {
    fakeServer(json(200, { csrfToken: 'a' }), json(429, { code: 'TOO_MANY_ATTEMPTS' }, { 'Retry-After': '120' }));
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ retryAfterSeconds: 120 });
  });

  it('keeps the body status 3 when cookies stay blocked after one fresh token', async () => {
    const blocked = () => json(403, { code: 'COOKIES_BLOCKED', status: 3 });
    fakeServer(json(200, { csrfToken: 'a' }), blocked(), json(200, { csrfToken: 'b' }), blocked());
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ code: 'COOKIES_BLOCKED', bodyStatus: 3 });
  });

  it('recovers once when the session cookie was cleared while the page stayed open', async () => {
    fakeServer(
      json(200, { csrfToken: 'a' }),
      json(403, { code: 'COOKIES_BLOCKED', status: 3 }),
      json(200, { csrfToken: 'b' }),
      json(200, { ok: true }),
    );
    await expect(api.post('/auth/login', {})).resolves.toEqual({ ok: true });
  });

  it('turns a failed connection into NETWORK', async () => {
    fakeServer(new TypeError('Failed to fetch'));
    await expect(api.get('/user/profile')).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('names an error without a JSON body by its status class', async () => {
    fakeServer(new Response('<html>Bad gateway</html>', { status: 502 }), new Response('', { status: 418 }));
    await expect(api.get('/user/profile')).rejects.toMatchObject({ status: 502, code: 'INTERNAL' });
    await expect(api.get('/user/profile')).rejects.toMatchObject({ status: 418, code: 'UNKNOWN' });
  });

  it('lets an aborted request reject as an abort, not as a network failure', async () => {
    fakeServer(new DOMException('aborted', 'AbortError'));
    await expect(api.get('/screenings')).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T10:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Thu, 01 Jan 2026 10:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
