import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ScreeningListResponse } from '../../common/types/screenings';
import { TestClient, type TestResponse } from '../../tests/support/app';
import { freePort } from '../../tests/support/free-port';
import { createDb, type Db } from '../db';
import { startTestS3, type TestS3 } from '../lib/storage-test-support';
import { signOpenPayu } from '../payments/openpayu-signature';
import { createUpload, patchUpload, syntheticMammogram, tusRequest } from '../upload/resumable/resumable-test-support';
import { cookieHeader, corpusFile, filesUnder, postDicoms } from '../upload/upload-test-support';

// Issue 16: any number of portal processes behind a load balancer with no stickiness, sharing
// only PostgreSQL and the bucket. Two real processes (tests/support/serve-demo.ts, the demo data)
// on one schema, their stored files and their uploads in progress in one S3 bucket (s3rver), each
// with a DATA_DIR of its own, behind Debian's HAProxy in round robin, which names the process that
// answered in X-Served-By. PostgreSQL only: the embedded database serves one process.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const onPostgres = inject('databaseKind') !== 'pglite';
const ANNA = { login: 'anna.nowak@example.com', password: 'Mammo!2024demo' };
const SECOND_KEY = randomBytes(16).toString('hex');

type Portal = { name: 'a' | 'b'; port: number; url: string; child: ChildProcess };

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.runIf(onPostgres)('two portal processes behind HAProxy on one PostgreSQL and one bucket', () => {
  const schema = `cluster_${randomBytes(5).toString('hex')}`;
  let dataDir: string;
  const portals: Portal[] = [];
  let haproxy: ChildProcess;
  let lb: string;
  let db: Db;
  let s3: TestS3;

  async function startPortal(name: 'a' | 'b'): Promise<Portal> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/serve-demo.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: inject('databaseUrl'),
        DEMO_SCHEMA: schema,
        DEMO_DATA_DIR: path.join(dataDir, name),
        DEMO_PORT: String(port),
        PAYMENT_SANDBOX_SECOND_KEY: SECOND_KEY,
        STORAGE: 's3',
        S3_BUCKET: s3.settings.bucket,
        S3_ENDPOINT: s3.settings.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const portal = { name, port, url: `http://127.0.0.1:${port}`, child };
    await waitUntil(`portal ${name} ready`, async () => (await fetch(`${portal.url}/readyz`)).ok);
    return portal;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cluster-'));
    s3 = await startTestS3('portal-cluster');
    // One after the other: the first makes the schema and loads the demo data, the second finds them.
    portals.push(await startPortal('a'));
    portals.push(await startPortal('b'));
    const lbPort = await freePort();
    const config = path.join(dataDir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'defaults',
        '  mode http',
        '  timeout connect 5s',
        '  timeout client 120s',
        '  timeout server 120s',
        'frontend portal',
        `  bind 127.0.0.1:${lbPort}`,
        '  default_backend portals',
        'backend portals',
        '  balance roundrobin',
        '  option httpchk GET /readyz',
        '  http-response set-header X-Served-By %s',
        ...portals.map((portal) => `  server ${portal.name} 127.0.0.1:${portal.port} check inter 500ms fall 2 rise 2`),
      ].join('\n') + '\n',
    );
    haproxy = spawn('/usr/sbin/haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
    lb = `http://127.0.0.1:${lbPort}`;
    const seen = new Set<string>();
    await waitUntil('HAProxy routing to both', async () => {
      const response = await fetch(`${lb}/healthz`);
      seen.add(response.headers.get('x-served-by') ?? '');
      return seen.has('a') && seen.has('b');
    });
    db = createDb({ url: inject('databaseUrl'), schema, poolMax: 2 });
  }, 240_000);

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    for (const { child } of portals) if (child.exitCode === null) child.kill('SIGKILL');
    await db?.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await db?.destroy();
    await s3?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const servedBy = (responses: TestResponse[]) => new Set(responses.map((response) => response.headers.get('x-served-by')));

  it('keeps her signed in whichever process answers', async () => {
    const anna = new TestClient(lb);
    expect((await anna.loginPortal(ANNA.login, ANNA.password)).status).toBe(200);
    const reads = [];
    for (let i = 0; i < 6; i++) reads.push(await anna.get('/api/user/profile'));
    expect(reads.map((read) => read.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(servedBy(reads)).toEqual(new Set(['a', 'b']));
  });

  it('stores an upload whose batches land on both processes', async () => {
    const anna = new TestClient(lb);
    await anna.loginPortal(ANNA.login, ANNA.password);
    const files = ['CT_small.dcm', 'MR_small.dcm', 'JPEG2000.dcm', 'MR_small_implicit.dcm'].map(corpusFile);
    const batches = [];
    for (const file of files) batches.push(await postDicoms(anna, lb, [file]));
    expect(batches.map((batch) => batch.body.stored + batch.body.duplicates)).toEqual([1, 1, 1, 1]);
    expect(servedBy(batches)).toEqual(new Set(['a', 'b']));
    const listed = await anna.get('/api/dicom');
    expect(JSON.stringify(listed.body)).toContain('CT');
  });

  it('builds a disc image on one process and serves the same bytes from both', async () => {
    const anna = new TestClient(lb);
    await anna.loginPortal(ANNA.login, ANNA.password);
    const { items } = (await anna.get('/api/screenings')).body as ScreeningListResponse;
    const id = items[0]!.screening.id;
    expect((await anna.post('/api/iso/generate', { id })).status).toBe(202);
    await waitUntil('the disc image built', async () => (await anna.get(`/api/iso/status?id=${id}`)).body.status === 'done', 60_000);
    const downloads = await Promise.all(
      portals.map(async (portal) =>
        Buffer.from(await (await fetch(`${portal.url}/api/iso?id=${id}`, { headers: { cookie: cookieHeader(anna) } })).arrayBuffer()),
      ),
    );
    expect(downloads[0]!.length).toBeGreaterThan(100_000);
    expect(downloads[0]!.equals(downloads[1]!)).toBe(true);
  });

  it('applies a payment notification that reaches the process which did not start the payment', async () => {
    const [a, b] = portals as [Portal, Portal];
    const anna = new TestClient(a.url);
    await anna.loginPortal(ANNA.login, ANNA.password);
    const products = ((await anna.get('/api/products')).body as { id: number; kind: string }[]).filter((p) =>
      p.kind.startsWith('translation'),
    );
    const { items } = (await anna.get('/api/screenings')).body as ScreeningListResponse;
    let orderId: number | undefined;
    for (const item of items) {
      const description = item.documents.find((document) => document.type === 'description');
      for (const product of description ? products : []) {
        const order = await anna.post('/api/order', {
          screeningId: item.screening.id,
          productId: product.id,
          documentId: description!.id,
          language: 'pl',
        });
        if (order.status === 201) orderId = order.body.orderId;
        if (orderId) break;
      }
      if (orderId) break;
    }
    expect(orderId).toBeDefined();
    expect((await anna.post('/api/payment', { orderId })).status).toBe(200);
    const payment = await db('payments').where({ order_id: orderId }).first();
    const body = JSON.stringify({
      order: {
        orderId: payment.provider_order_id,
        extOrderId: String(orderId),
        currencyCode: 'PLN',
        totalAmount: String(payment.amount_grosze),
        status: 'COMPLETED',
      },
      localReceiptDateTime: new Date().toISOString(),
    });
    const notified = await fetch(`${b.url}/api/payments/notify/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'OpenPayu-Signature': signOpenPayu(body, SECOND_KEY) },
      body,
    });
    expect(notified.status).toBe(200);
    expect((await anna.get(`/api/order/${orderId}/status`)).body).toMatchObject({ status: 'COMPLETED' });
  });

  it('after kill -9 of a process mid-upload and mid-download of her disc image, she finishes both through the other', async () => {
    const [a, b] = portals as [Portal, Portal];
    const anna = new TestClient(a.url);
    await anna.loginPortal(ANNA.login, ANNA.password);
    const { items } = (await anna.get('/api/screenings')).body as ScreeningListResponse;
    const discId = items[0]!.screening.id;
    expect((await anna.get(`/api/iso/status?id=${discId}`)).body.status).toBe('done');
    // Her download from a has begun: she has its first bytes when the process dies.
    const download = await fetch(`${a.url}/api/iso?id=${discId}`, { headers: { cookie: cookieHeader(anna) } });
    const discSize = Number(download.headers.get('content-length'));
    const etag = download.headers.get('etag')!;
    const reader = download.body!.getReader();
    const received: Buffer[] = [Buffer.from((await reader.read()).value!)];
    expect(received[0]!.length).toBeLessThan(discSize);

    const image = syntheticMammogram('cluster.dcm', 12);
    const firstPart = 4 * 1024 * 1024;
    const created = await createUpload(anna, a.url, image.bytes.length, 'cluster.dcm', { body: image.bytes.subarray(0, firstPart) });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, a.url).pathname;
    // The next part is under way when the process dies.
    const cut = patchUpload(anna, a.url, location, firstPart, image.bytes.subarray(firstPart)).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    a.child.kill('SIGKILL');
    await cut;
    await reader.cancel().catch(() => undefined);

    // Her browser goes on through the load balancer, which now has only b: ask the offset, send the rest.
    const onB = new TestClient(lb);
    onB.cookies.clear();
    for (const [name, value] of anna.cookies) onB.cookies.set(name, value);
    onB.csrfToken = anna.csrfToken;
    const answeredBy = async () => (await fetch(`${lb}/healthz`)).headers.get('x-served-by');
    await waitUntil('HAProxy taking a out', async () => (await answeredBy()) === 'b' && (await answeredBy()) === 'b', 10_000);
    // Her download manager asks for the rest of the same image (If-Range), which b answers (before
    // the upload completes: a new image of hers drops her built discs).
    const have = Buffer.concat(received);
    const resumed = await fetch(`${lb}/api/iso?id=${discId}`, {
      headers: { cookie: cookieHeader(onB), range: `bytes=${have.length}-`, 'if-range': etag },
    });
    expect([resumed.status, resumed.headers.get('x-served-by')]).toEqual([206, 'b']);
    const whole = Buffer.concat([have, Buffer.from(await resumed.arrayBuffer())]);
    const fromB = Buffer.from(
      await (await fetch(`${b.url}/api/iso?id=${discId}`, { headers: { cookie: cookieHeader(onB) } })).arrayBuffer(),
    );
    expect(whole.length).toBe(discSize);
    expect(whole.equals(fromB)).toBe(true);

    const head = await tusRequest(onB, lb, 'HEAD', location);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(firstPart);
    const rest = await patchUpload(onB, lb, location, offset, image.bytes.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('x-served-by')).toBe('b');
    const stored = await db('dicom_instances').where({ sop_instance_uid: image.sopInstanceUid }).first();
    expect(stored).toBeDefined();
    // Whole, in the bucket, and nothing of it on either process's disk.
    const client = new S3Client({ region: s3.settings.region, endpoint: s3.settings.endpoint, forcePathStyle: true });
    const object = await client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: stored.storage_key }));
    client.destroy();
    expect(object.ContentLength).toBe(image.bytes.length);
    for (const name of ['a', 'b']) expect(filesUnder(path.join(dataDir, name, 'storage'))).toEqual([]);
    expect(b.child.exitCode).toBeNull();
  });
});
