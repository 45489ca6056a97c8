import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, parseRetryAfter, postFormWithProgress, resetCsrfToken } from './api';
import { FakeXhrBase } from '../testing/xhr';

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

  it('sends FormData as multipart without a JSON content type', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'a' }), json(200, {}));
    const form = new FormData();
    form.append('dicoms', new Blob(['x']), 'a.dcm');
    await api.post('/dicom', form);
    expect(calls[1]?.body).toBe(form);
    expect(calls[1]?.headers['Content-Type']).toBeUndefined();
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

type XhrAnswer = { status: number; body?: unknown; headers?: string } | 'network-error';

/**
 * A fake XMLHttpRequest: each request takes the next answer, after reporting its body as sent in
 * two steps. Sent requests are recorded; `hold` keeps the next one open until it is aborted.
 */
function fakeXhr(...answers: XhrAnswer[]) {
  const sent: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  const control = { sent, hold: false };
  class FakeXhr extends FakeXhrBase {
    send(body: unknown) {
      sent.push({ ...this.request, body });
      if (control.hold) return;
      const answer = answers.shift();
      setTimeout(() => {
        this.reportSent(400, 1000);
        this.reportSent(1000, 1000);
        if (answer === undefined || answer === 'network-error') return this.onerror?.();
        this.answer(
          answer.status,
          answer.body === undefined ? '' : JSON.stringify(answer.body),
          answer.headers ?? 'content-type: application/json\r\n',
        );
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return control;
}

function dicomForm(): FormData {
  const form = new FormData();
  form.append('dicoms', new Blob(['DICM']), 'disc/IM1');
  return form;
}

describe('postFormWithProgress', () => {
  it('posts the form with the CSRF token, reports the bytes sent and answers the JSON body', async () => {
    const calls = fakeServer(json(200, { csrfToken: 'tok-1' }));
    const xhr = fakeXhr({ status: 200, body: { stored: 1, duplicates: 0, refused: [] } });
    const form = dicomForm();
    const progress: string[] = [];
    const answer = await postFormWithProgress('/dicom', form, { onUploadProgress: (loaded, total) => progress.push(`${loaded}/${total}`) });
    expect(answer).toEqual({ stored: 1, duplicates: 0, refused: [] });
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/csrf']);
    expect(xhr.sent).toEqual([
      { method: 'POST', url: '/api/dicom', headers: { Accept: 'application/json', 'X-CSRF-Token': 'tok-1' }, body: form },
    ]);
    expect(progress).toEqual(['400/1000', '1000/1000']);
  });

  it('renews a stale token once and sends the form again, its progress starting over', async () => {
    fakeServer(json(200, { csrfToken: 'stale' }), json(200, { csrfToken: 'fresh' }));
    const xhr = fakeXhr(
      { status: 403, body: { code: 'INVALID_CSRF_TOKEN' } },
      { status: 200, body: { stored: 1, duplicates: 0, refused: [] } },
    );
    const progress: number[] = [];
    await expect(
      postFormWithProgress('/dicom', dicomForm(), { onUploadProgress: (loaded) => progress.push(loaded) }),
    ).resolves.toMatchObject({ stored: 1 });
    expect(xhr.sent.map((request) => request.headers['X-CSRF-Token'])).toEqual(['stale', 'fresh']);
    expect(progress).toEqual([400, 1000, 400, 1000]);
  });

  it('gives up after one renewal when cookies stay blocked, keeping the body status', async () => {
    fakeServer(json(200, { csrfToken: 'a' }), json(200, { csrfToken: 'b' }));
    const blocked = { status: 403, body: { code: 'COOKIES_BLOCKED', status: 3 } };
    const xhr = fakeXhr(blocked, blocked);
    await expect(postFormWithProgress('/dicom', dicomForm(), { onUploadProgress: () => {} })).rejects.toMatchObject({
      code: 'COOKIES_BLOCKED',
      bodyStatus: 3,
    });
    expect(xhr.sent).toHaveLength(2);
  });

  it('maps refusals, server failures and lost connections to the same ApiError codes as api.post', async () => {
    fakeServer(json(200, { csrfToken: 'a' }));
    fakeXhr(
      { status: 413, body: { code: 'PAYLOAD_TOO_LARGE', maxRequestBytes: 10 } },
      { status: 503, body: '<html>', headers: 'content-type: text/html\r\nretry-after: 20\r\n' },
      'network-error',
    );
    const post = () => postFormWithProgress('/dicom', dicomForm(), { onUploadProgress: () => {} });
    await expect(post()).rejects.toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    await expect(post()).rejects.toMatchObject({ status: 503, code: 'INTERNAL', retryAfterSeconds: 20 });
    const lost = await post().catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(ApiError);
    expect(lost).toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('rejects as an abort when the page gives up on the request', async () => {
    fakeServer(json(200, { csrfToken: 'a' }));
    const xhr = fakeXhr();
    xhr.hold = true;
    const controller = new AbortController();
    const posting = postFormWithProgress('/dicom', dicomForm(), { onUploadProgress: () => {}, signal: controller.signal });
    await vi.waitFor(() => expect(xhr.sent).toHaveLength(1));
    controller.abort();
    await expect(posting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
