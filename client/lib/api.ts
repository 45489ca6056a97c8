/**
 * The one way the client talks to the server (docs/api.md): JSON under /api, the session cookie,
 * the CSRF token of the synchronizer-token pattern, and one error type for every failure.
 */

import { takeEarlyRequest } from '../early-start/takeover';

const BASE = '/api';
const CSRF_HEADER = 'X-CSRF-Token';
const CSRF_PATH = '/auth/csrf';
/** The only GET the server checks for a CSRF token: a cross-site link must not sign anyone out. */
const CSRF_CHECKED_GETS = new Set(['/auth/logout']);

export type ApiIssue = { path: string; message: string };

/** Codes the client itself produces, next to the server's codes of docs/api.md. */
export const NETWORK_ERROR = 'NETWORK';
export const UNKNOWN_ERROR = 'UNKNOWN';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: ApiIssue[];
  readonly retryAfterSeconds: number | null;
  /** `status` of the error body: 3 means the browser refused the session cookie. */
  readonly bodyStatus: number | null;

  constructor(init: { status: number; code: string; issues?: ApiIssue[]; retryAfterSeconds?: number | null; bodyStatus?: number | null }) {
    super(`${init.status} ${init.code}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.issues = init.issues ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.bodyStatus = init.bodyStatus ?? null;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

export type QueryValue = string | number | boolean | null | undefined;
export type RequestOptions = {
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let csrfToken: string | null = null;
let csrfTokenRequest: Promise<string> | null = null;

/** Forget the token, e.g. when the server says the session behind it is gone. */
export function resetCsrfToken(): void {
  csrfToken = null;
  csrfTokenRequest = null;
}

function fetchCsrfToken(): Promise<string> {
  // Concurrent first requests share one token request instead of racing for a session.
  csrfTokenRequest ??= send('GET', CSRF_PATH, undefined, {})
    .then(async (response) => {
      const body = (await readJson(response)) as { csrfToken?: unknown } | undefined;
      if (typeof body?.csrfToken !== 'string') {
        throw new ApiError({ status: response.status, code: UNKNOWN_ERROR });
      }
      csrfToken = body.csrfToken;
      return body.csrfToken;
    })
    .finally(() => {
      csrfTokenRequest = null;
    });
  return csrfTokenRequest;
}

async function currentCsrfToken(): Promise<string> {
  return csrfToken ?? fetchCsrfToken();
}

function needsCsrfToken(method: Method, path: string): boolean {
  return method !== 'GET' || CSRF_CHECKED_GETS.has(path);
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ''}`;
}

/**
 * Carries one request and resolves with the server's answer, whatever its status; rejects with an
 * AbortError when aborted and with anything else when the request did not get through.
 */
function transport(
  url: string,
  init: { method: Method; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<Response> {
  const send = () => fetch(url, { ...init, credentials: 'same-origin' });
  // The result page's first GETs may already be under way (client/early-start).
  const early = takeEarlyRequest(url, init.method);
  return early ? early.then((response) => response ?? send()) : send();
}

async function send(method: Method, path: string, body: unknown, options: RequestOptions, token?: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: string | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (token !== undefined) headers[CSRF_HEADER] = token;

  let response: Response;
  try {
    response = await transport(buildUrl(path, options.query), { method, headers, body: payload, signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: NETWORK_ERROR });
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Seconds from a Retry-After header, which may also be an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function toIssues(value: unknown): ApiIssue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (issue): issue is ApiIssue =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as ApiIssue).path === 'string' &&
      typeof (issue as ApiIssue).message === 'string',
  );
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await readJson(response)) as Record<string, unknown> | undefined;
  const bodyCode = typeof body?.code === 'string' ? body.code : null;
  const retryAfterSeconds =
    typeof body?.retryAfterSeconds === 'number' ? body.retryAfterSeconds : parseRetryAfter(response.headers.get('Retry-After'));
  return new ApiError({
    status: response.status,
    code: bodyCode ?? (response.status >= 500 ? 'INTERNAL' : UNKNOWN_ERROR),
    issues: toIssues(body?.issues),
    retryAfterSeconds,
    bodyStatus: typeof body?.status === 'number' ? body.status : null,
  });
}

async function request(method: Method, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  if (!needsCsrfToken(method, path)) return send(method, path, body, options);
  try {
    return await send(method, path, body, options, await currentCsrfToken());
  } catch (error) {
    // A token from before a server restart or an expired session, or a session cookie the user
    // cleared while the page stayed open: fetch a fresh token (which sets a new cookie) and try
    // once more. Where cookies really are blocked, the retry is refused the same way and says so.
    if (!isApiError(error, 'INVALID_CSRF_TOKEN') && !isApiError(error, 'COOKIES_BLOCKED')) throw error;
    csrfToken = null;
    return send(method, path, body, options, await fetchCsrfToken());
  }
}

async function requestJson<T>(method: Method, path: string, body: unknown, options: RequestOptions): Promise<T> {
  const data = await readJson(await request(method, path, body, options));
  // Login and logout answer a fresh token for the renewed session.
  const freshToken = (data as { csrfToken?: unknown } | undefined)?.csrfToken;
  if (typeof freshToken === 'string') csrfToken = freshToken;
  return data as T;
}

export const api = {
  get: <T>(path: string, options: RequestOptions = {}) => requestJson<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options: RequestOptions = {}) => requestJson<T>('POST', path, body, options),
  patch: <T>(path: string, body?: unknown, options: RequestOptions = {}) => requestJson<T>('PATCH', path, body, options),
  delete: <T>(path: string, options: RequestOptions = {}) => requestJson<T>('DELETE', path, undefined, options),
  /** Files (PDF, ISO): the body as a Blob; failures still arrive as ApiError. */
  getBlob: async (path: string, options: RequestOptions = {}): Promise<Blob> => (await request('GET', path, undefined, options)).blob(),
};
