import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';

const ALL_OK = { database: 'ok', migrations: 'ok', storage: 'ok', jobQueue: 'ok' };

async function get(app: TestApp, path: string) {
  const response = await fetch(`${app.baseUrl}${path}`);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The job queue starts in the background with the app; the test asks again until it has, as a probe would. */
async function readyWhenStarted(app: TestApp) {
  for (let attempt = 0; ; attempt++) {
    const response = await get(app, '/readyz');
    if (response.body.checks.jobQueue === 'ok' || attempt === 50) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('on a working portal', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Every request line is a debug line: the log check below needs them written.
    app = await startTestApp({ config: { logLevel: 'debug' } });
  });
  afterAll(() => app?.close());

  it('/healthz answers that the process lives, with no session and no caching', async () => {
    const response = await get(app, '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('/readyz answers ready with every check ok, with no session and no caching', async () => {
    const response = await readyWhenStarted(app);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', checks: ALL_OK });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('keeps the probes out of the request log, which still logs other calls', async () => {
    await get(app, '/healthz');
    await get(app, '/readyz');
    await get(app, '/api/version');
    const paths = app.logs.map((line) => JSON.parse(line).path).filter(Boolean);
    expect(paths).not.toContain('/healthz');
    expect(paths).not.toContain('/readyz');
    expect(paths.length).toBeGreaterThan(0);
  });

  it('leaves no probe file in the store', async () => {
    const leftovers = readdirSync(path.join(app.config.dataDir, 'storage')).filter((name) => name.startsWith('.readyz-'));
    expect(leftovers).toEqual([]);
  });

  it('/readyz answers 503 once the job queue is stopped, naming only that check', async () => {
    // What app.close() does first; closing the app twice is harmless.
    await app.express.close();
    const response = await get(app, '/readyz');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'not_ready', checks: { ...ALL_OK, jobQueue: 'failing' } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toBeNull();
    // /healthz does not care: the process still answers.
    expect((await get(app, '/healthz')).status).toBe(200);
  });
});

describe('when the file store cannot be written', () => {
  let app: TestApp;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'portal-health-'));
    // DATA_DIR is a file, so its storage folder can never be made.
    const dataDir = path.join(folder, 'not-a-folder');
    writeFileSync(dataDir, '');
    app = await startTestApp({ config: { dataDir } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('/readyz answers 503 with storage failing, and logs why', async () => {
    const response = await readyWhenStarted(app);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'not_ready', checks: { ...ALL_OK, storage: 'failing' } });
    expect(app.logs.some((line) => line.includes('readiness check failing') && line.includes('"check":"storage"'))).toBe(true);
  });
});
