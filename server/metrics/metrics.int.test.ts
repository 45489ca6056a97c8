import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { startJobQueue } from '../lib/job-queue';
import { createLogger } from '../lib/logger';
import { keepInOutbox } from '../lib/outbox-repo';
import { createUpload, patchUpload } from '../upload/resumable/resumable-test-support';
import { corpusFiles, postDicoms } from '../upload/upload-test-support';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp({ config: { metricsToken: TOKEN } });
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

async function scrape(authorization = `Bearer ${TOKEN}`) {
  const response = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one sample line, `name{labels} value`, or undefined when the line is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('GET /metrics', () => {
  it('answers only the bearer of METRICS_TOKEN, in the Prometheus text format', async () => {
    expect((await scrape('')).status).toBe(401);
    expect((await scrape('Bearer not-the-token-0123456789abcdef01234')).status).toBe(401);
    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('text/plain; version=0.0.4');
    expect(answer.text).toContain('# TYPE portal_http_requests_total counter');
    expect(answer.text).toContain('portal_process_resident_memory_bytes');
  });

  it('counts requests and their time by route pattern, never by concrete path', async () => {
    const before = sample((await scrape()).text, 'portal_http_requests_total', { route: '/api/auth/csrf', status: '2xx' }) ?? 0;
    for (let i = 0; i < 3; i += 1) await app.client().fetchCsrf();
    await app.client().get('/api/screening/987654/referral/exists');
    const { text } = await scrape();
    expect(sample(text, 'portal_http_requests_total', { method: 'GET', route: '/api/auth/csrf', status: '2xx' })).toBe(before + 3);
    expect(sample(text, 'portal_http_request_duration_seconds_count', { method: 'GET', route: '/api/auth/csrf' })).toBeGreaterThanOrEqual(
      3,
    );
    expect(text).not.toContain('987654');
  });

  it('counts the bytes of an upload by the way it came', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    const files = corpusFiles().slice(0, 2);
    expect((await postDicoms(client, app.baseUrl, files)).status).toBeLessThan(300);
    const sent = files.reduce((sum, file) => sum + file.bytes.length, 0);
    const counted = sample((await scrape()).text, 'portal_upload_bytes_total', { way: 'multipart' })!;
    // The multipart body: the files plus their part headers.
    expect(counted).toBeGreaterThanOrEqual(sent);
    expect(counted).toBeLessThan(sent + 4096);
  });

  it('counts a resumable upload under its own way, its creation and its PATCH', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    const [file] = corpusFiles().slice(2, 3);
    const half = Math.floor(file!.bytes.length / 2);
    const before = sample((await scrape()).text, 'portal_upload_bytes_total', { way: 'resumable' }) ?? 0;
    const created = await createUpload(client, app.baseUrl, file!.bytes.length, file!.name, { body: file!.bytes.subarray(0, half) });
    expect(created.status).toBe(201);
    const patched = await patchUpload(
      client,
      app.baseUrl,
      new URL(created.headers.get('location')!, app.baseUrl).pathname,
      half,
      file!.bytes.subarray(half),
    );
    expect(patched.status).toBe(204);
    const counted = sample((await scrape()).text, 'portal_upload_bytes_total', { way: 'resumable' })! - before;
    expect(counted).toBeGreaterThanOrEqual(file!.bytes.length);
    expect(counted).toBeLessThan(file!.bytes.length + 8192);
  });

  it('counts payment notifications by outcome', async () => {
    for (let i = 0; i < 2; i += 1) {
      await fetch(`${app.baseUrl}/api/payments/notify/sandbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    }
    const text = (await scrape()).text;
    const refused = text.split('\n').filter((line) => line.startsWith('portal_payment_notifications_total{outcome="refused_'));
    expect(refused.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0)).toBe(2);
  });

  it('reports the job queue and the outbox from the shared database', async () => {
    const other = startJobQueue({ db: app.db, logger: createLogger({ logLevel: 'silent' }) });
    try {
      const boss = await other.boss();
      await boss.createQueue('metrics-test', { name: 'metrics-test' });
      await boss.send('metrics-test', {});
      await boss.send('metrics-test', {});
    } finally {
      await other.stop();
    }
    await keepInOutbox(app.db, { channel: 'email', recipient: 'a@example.com', subject: 's', bodyText: 't' });
    const { text } = await scrape();
    expect(sample(text, 'portal_job_queue_depth', { queue: 'metrics-test', state: 'waiting' })).toBe(2);
    expect(sample(text, 'portal_job_queue_oldest_waiting_seconds', { queue: 'metrics-test' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'portal_outbox_unsent', { channel: 'email' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portal_outbox_oldest_unsent_seconds', { channel: 'email' })).toBeGreaterThanOrEqual(0);
  });
});

describe('without METRICS_TOKEN', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(() => plain?.close());

  it('there is no /metrics at all', async () => {
    const response = await fetch(`${plain.baseUrl}/metrics`, { headers: { authorization: 'Bearer anything' } });
    expect(response.status).toBe(404);
  });
});
