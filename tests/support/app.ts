import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp, type AppDeps, type PortalApp } from '../../server/app';
import type { ThrottlePolicy } from '../../server/auth/throttle-policy';
import { loadConfig, type Config } from '../../server/config';
import type { Db } from '../../server/db';
import { createLogger } from '../../server/lib/logger';
import { createTestDatabase } from './database';
import { freePort } from './free-port';
import { sha256Hex, type MinimalSeed } from './seed-minimal';

export { seedMinimal, sha256Hex, type MinimalSeed } from './seed-minimal';

const TEST_ENV = {
  NODE_ENV: 'test',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
  ACCESS_CODE_SECRET: 'test-access-code-secret-0123456789ab',
  LOG_LEVEL: 'info',
  DEMO_DATA: 'false',
};

/** Time that runs like the real one but can be pushed forward, to expire sessions or waits. */
export type TestClock = { now(): number; advance(ms: number): void };

export function createTestClock(): TestClock {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => void (offset += ms) };
}

export type TestApp = {
  baseUrl: string;
  /** The Express app itself, for tests that read its routes. */
  express: PortalApp;
  db: Db;
  config: Config;
  clock: TestClock;
  /** Every log line the app wrote, as JSON text. */
  logs: string[];
  client(): TestClient;
  close(): Promise<void>;
};

export type TestAppOptions = {
  /** Without `dataDir`, the files the app writes (uploads, disc images) go to a folder of its own, removed on close. */
  config?: Partial<Config>;
  throttlePolicy?: ThrottlePolicy;
  /** A built client to serve; by default none (API only). */
  clientDir?: string;
};

/**
 * The real app on a fresh database schema, listening on a free port, with its log captured.
 * One per test file: `beforeAll(() => startTestApp())`, `afterAll(() => app.close())`.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const ownDataDir = options.config?.dataDir === undefined ? mkdtempSync(path.join(tmpdir(), 'portal-test-')) : undefined;
  // The app's own address, known before it starts: links in mail and the payment provider's
  // notification and return addresses point back at it.
  const port = await freePort();
  const config = loadConfig(TEST_ENV, {
    ...(ownDataDir && { dataDir: ownDataDir }),
    publicUrl: `http://127.0.0.1:${port}`,
    ...options.config,
  });
  const clock = createTestClock();
  const logs: string[] = [];
  const logger = createLogger(config, { write: (line: string) => void logs.push(line) });
  const deps: AppDeps = {
    config,
    db: database.db,
    logger,
    clock: clock.now,
    throttlePolicy: options.throttlePolicy,
    clientDir: options.clientDir ?? '/nonexistent/dist/client',
  };
  const app = createApp(deps);
  const server = app.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    express: app,
    db: database.db,
    config,
    clock,
    logs,
    client: () => new TestClient(baseUrl),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await database.drop();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

// Tests read response bodies ad hoc and the assertions check their shape; typing each one
// would restate docs/api.md in every test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse<Body = any> = { status: number; headers: Headers; body: Body; text: string };

type RequestOptions = {
  body?: unknown;
  /** A raw body sent as is (malformed JSON, oversized payloads). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Leave out the X-CSRF-Token header even when a token is known. */
  withoutCsrf?: boolean;
};

/**
 * A browser in miniature: keeps cookies, remembers the CSRF token the server hands out and sends
 * it where the client does (every non-GET and the logout).
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(private readonly baseUrl: string) {}

  get(path: string, options: RequestOptions = {}): Promise<TestResponse> {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<TestResponse> {
    return this.request('POST', path, { ...options, body });
  }

  async fetchCsrf(): Promise<string> {
    const response = await this.get('/api/auth/csrf');
    return response.body.csrfToken;
  }

  async loginResult(accessCode: string, birthAt: string, extra: Record<string, string> = {}): Promise<TestResponse> {
    if (!this.csrfToken) await this.fetchCsrf();
    return this.post('/api/auth/login', { accessCode, birthAt, portalTerms: true, policyTerms: true }, { headers: extra });
  }

  async loginPortal(login: string, password: string, extra: Record<string, string> = {}): Promise<TestResponse> {
    if (!this.csrfToken) await this.fetchCsrf();
    return this.post(
      '/api/auth/portal/login',
      { login, password: sha256Hex(password), portalTerms: true, policyTerms: true },
      { headers: extra },
    );
  }

  logout(): Promise<TestResponse> {
    return this.get('/api/auth/logout');
  }

  get sessionCookie(): string | undefined {
    return this.cookies.get('portal.sid');
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const sendsCsrf = method !== 'GET' || path.startsWith('/api/auth/logout');
    if (sendsCsrf && this.csrfToken && !options.withoutCsrf) headers['x-csrf-token'] ??= this.csrfToken;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';

    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    this.storeCookies(response.headers.getSetCookie());
    const text = await response.text();
    const parsed = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined;
    if (typeof parsed?.csrfToken === 'string') this.csrfToken = parsed.csrfToken;
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  private storeCookies(setCookies: string[]): void {
    for (const setCookie of setCookies) {
      const [pair = '', ...attributes] = setCookie.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const expires = attributes.find((a) => a.trim().toLowerCase().startsWith('expires='));
      const expired = expires !== undefined && new Date(expires.split('=')[1]!).getTime() < Date.now();
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(separator + 1).trim());
    }
  }
}

export type SignIn = (headers?: Record<string, string>) => Promise<TestClient>;

/** Fresh clients signed in as the minimal seed's patient or its result-portal guest. */
export function seededSignIns(app: TestApp, seed: MinimalSeed): { patient: SignIn; guest: SignIn } {
  return {
    patient: async (headers = {}) => {
      const client = app.client();
      await client.loginPortal(seed.patient.login, seed.patient.password, headers);
      return client;
    },
    guest: async (headers = {}) => {
      const client = app.client();
      await client.loginResult(seed.guest.accessCode, seed.guest.birthAt, headers);
      return client;
    },
  };
}
