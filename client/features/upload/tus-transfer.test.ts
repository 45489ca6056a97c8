import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DetailedError, HttpRequest, HttpResponse, UploadOptions } from 'tus-js-client';
import { resetCsrfToken } from '../../lib/api';
import { fakeApi } from '../../testing/session';
import { ResumeStorage } from './resume-storage';
import { CsrfToken, startTusTransfer, type TusContext } from './tus-transfer';
import type { TransferHandlers } from './run-types';

const BATCH = '3f1c2a4e-8b7d-4c6e-9a0f-1e2d3c4b5a69';

/** The Upload instances the transfer made, with their options, and what was asked of them. */
const made = vi.hoisted(() => [] as Array<{ options: UploadOptions; calls: string[]; upload: { url: string | null } }>);
vi.mock('tus-js-client', () => ({
  Upload: class {
    url: string | null = null;
    private record: (typeof made)[number];
    constructor(_file: unknown, options: UploadOptions) {
      this.record = { options, calls: [], upload: this };
      made.push(this.record);
    }
    async findPreviousUploads() {
      this.record.calls.push('find');
      return [
        {
          uploadUrl: 'http://portal.test/api/dicom/uploads/abc',
          urlStorageKey: 'k',
          creationTime: '',
          size: null,
          metadata: {},
          parallelUploadUrls: null,
        },
      ];
    }
    resumeFromPreviousUpload(previous: { uploadUrl: string }) {
      this.url = previous.uploadUrl;
      this.record.calls.push('resume');
    }
    start() {
      this.record.calls.push('start');
    }
    async abort(terminate?: boolean) {
      this.record.calls.push(terminate ? 'terminate' : 'abort');
    }
  },
}));

function response(status: number, body: unknown = '', headers: Record<string, string> = {}): HttpResponse {
  return {
    getStatus: () => status,
    getBody: () => (typeof body === 'string' ? body : JSON.stringify(body)),
    getHeader: (name) => headers[name],
    getUnderlyingObject: () => null,
  };
}

function failure(status: number | null, body: unknown = ''): DetailedError {
  const request = { getMethod: () => 'PATCH', getURL: () => 'http://portal.test/api/dicom/uploads/abc' } as HttpRequest;
  return Object.assign(new Error('tus'), {
    originalRequest: request,
    originalResponse: status === null ? null : response(status, body),
    causingError: null,
  }) as DetailedError;
}

/** A file larger than one request's chunk: one that can be resumed. */
const LARGE = 9 * 1024 * 1024;

function start(online = true, size = LARGE) {
  const outcomes: unknown[] = [];
  const failures: unknown[] = [];
  const handlers: TransferHandlers = {
    onProgress: () => {},
    onDone: (outcome) => outcomes.push(outcome),
    onFailed: (f) => failures.push(f),
  };
  const context: TusContext = {
    storage: new ResumeStorage({
      length: 0,
      key: () => null,
      getItem: () => null,
      setItem: () => {},
      removeItem: () => {},
      clear: () => {},
    }),
    csrf: new CsrfToken(),
    endpoint: 'http://portal.test/api/dicom/uploads',
    fingerprint: async () => 'f',
    isOnline: () => online,
  };
  const transfer = startTusTransfer(context, { file: new File(['x'], 'IM1'), path: 'disc/IM1', size, lastModified: 1 }, handlers, BATCH);
  return { transfer, outcomes, failures, record: () => made.at(-1)! };
}

beforeEach(() => {
  made.length = 0;
  resetCsrfToken();
});
afterEach(() => vi.unstubAllGlobals());

describe('startTusTransfer', () => {
  it('resumes from the URL remembered for the file, with its first bytes in the creating request otherwise', async () => {
    const { record } = start();
    await vi.waitFor(() => expect(record().calls).toEqual(['find', 'resume', 'start']));
    expect(record().options).toMatchObject({
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { name: 'disc/IM1', batch: BATCH },
    });
    expect(record().options.chunkSize).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(record().options.chunkSize).toBeLessThan(LARGE);
    expect(record().options.storeFingerprintForResuming).toBe(true);
  });

  it('remembers nothing on the device for a file sent whole in its creating request', async () => {
    const { record } = start(true, 1);
    await vi.waitFor(() => expect(record().calls).toEqual(['start']));
    expect(record().options.storeFingerprintForResuming).toBe(false);
    expect(await record().options.fingerprint!(new File(['x'], 'IM1'), record().options)).toBeNull();
  });

  it('sends the CSRF token with every request, and asks for a fresh one once after INVALID_CSRF_TOKEN', async () => {
    let tokens = 0;
    fakeApi({ 'GET /auth/csrf': () => ({ body: { csrfToken: `t${++tokens}` } }) });
    const { record } = start();
    const headers: Record<string, string> = {};
    const request = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as HttpRequest;
    await record().options.onBeforeRequest!(request);
    expect(headers['X-CSRF-Token']).toBe('t1');
    const stale = failure(403, { code: 'INVALID_CSRF_TOKEN' });
    expect(record().options.onShouldRetry!(stale, 0, record().options)).toBe(true);
    await record().options.onBeforeRequest!(request);
    expect(headers['X-CSRF-Token']).toBe('t2');
    expect(record().options.onShouldRetry!(stale, 1, record().options)).toBe(false);
  });

  it('retries what may pass (no answer, 5xx, 409, 423), not a refusal, and not while offline', () => {
    const { record } = start();
    const retry = (error: DetailedError) => record().options.onShouldRetry!(error, 0, record().options);
    expect(retry(failure(null))).toBe(true);
    expect(retry(failure(503))).toBe(true);
    expect(retry(failure(409, { code: 'UPLOAD_OFFSET_CONFLICT' }))).toBe(true);
    expect(retry(failure(423, { code: 'UPLOAD_BUSY' }))).toBe(true);
    expect(retry(failure(413, { code: 'UPLOAD_QUOTA_EXCEEDED' }))).toBe(false);
    expect(retry(failure(401, { code: 'UNAUTHENTICATED' }))).toBe(false);
    const offline = start(false);
    expect(offline.record().options.onShouldRetry!(failure(null), 0, offline.record().options)).toBe(false);
  });

  it('reports refusals by their code, and a lost connection while offline as such', () => {
    const online = start();
    online.record().options.onError!(failure(413, { code: 'UPLOAD_QUOTA_EXCEEDED', quotaBytes: 1 }));
    online.record().options.onError!(failure(502, '<html>bad gateway</html>'));
    online.record().options.onError!(new Error('NotReadableError'));
    expect(online.failures).toEqual([{ code: 'UPLOAD_QUOTA_EXCEEDED' }, { code: 'INTERNAL' }, { code: 'FILE_UNREADABLE' }]);
    const offline = start(false);
    offline.record().options.onError!(failure(null));
    expect(offline.failures).toEqual([{ code: 'NETWORK', offline: true }]);
  });

  it('takes the outcome from the last answer, or asks for it when the server had the whole file already', async () => {
    const asked: string[] = [];
    fakeApi({
      'GET /dicom/uploads/abc/outcome': ({ path }) => {
        asked.push(path);
        return { body: { outcome: 'refused', reason: 'dicomdir' } };
      },
    });
    const direct = start();
    direct.record().options.onSuccess!({ lastResponse: response(204, '', { 'Upload-Outcome': 'duplicate' }) });
    await vi.waitFor(() => expect(direct.outcomes).toEqual([{ outcome: 'duplicate' }]));

    const found = start();
    await vi.waitFor(() => expect(found.record().calls).toContain('start'));
    // HEAD offset == length: tus reports success with the HEAD answer, which names no outcome.
    found.record().options.onSuccess!({ lastResponse: response(200, '', { 'Upload-Offset': '1', 'Upload-Length': '1' }) });
    await vi.waitFor(() => expect(found.outcomes).toEqual([{ outcome: 'refused', reason: 'dicomdir' }]));
    expect(asked).toEqual(['/dicom/uploads/abc/outcome']);
  });

  it('stops without deleting, and cancels with DELETE', async () => {
    const { transfer, record } = start();
    await vi.waitFor(() => expect(record().calls).toContain('start'));
    transfer.stop();
    transfer.restart();
    await transfer.cancel();
    expect(record().calls.slice(3)).toEqual(['abort', 'start', 'terminate']);
  });
});
