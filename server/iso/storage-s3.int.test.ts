import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { bsdtarFiles, extractFromIso } from '../../tests/support/iso-checks';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';
import { createFileStorage, type FileStorage } from '../lib/storage';
import { createS3Storage } from '../lib/storage-s3';
import { startTestS3, type TestS3 } from '../lib/storage-test-support';
import { cookieHeader, postDicoms } from '../upload/upload-test-support';
import { insertDescribedScreeningDocuments } from '../../tests/support/screening-documents';
import { moveDocumentsIntoStore } from '../screenings/document-files';
import { buildScreeningDisc } from './build';

/**
 * The portal with STORAGE=s3 (issue 16) against s3rver: an upload lands in the bucket, images and
 * the ISO disc image are served from it, ranges included, byte for byte as the local backend
 * serves them.
 */
// The DICOMDIR's own instance UID is fresh for every disc: fixed while the two discs below are built.
const uids = vi.hoisted(() => ({ fixed: undefined as string | undefined }));
vi.mock('../dicom/uids', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../dicom/uids')>();
  return { ...actual, uidFromUuid: (uuid?: string) => uids.fixed ?? actual.uidFromUuid(uuid) };
});

let s3: TestS3;
let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;
let bucket: FileStorage;
const scratch = mkdtempSync(path.join(tmpdir(), 'storage-s3-int-'));

const study = synthesizeScreeningStudy({
  patient: { firstName: 'Anna', lastName: 'Testowa', birthAt: '1968-04-12', patientId: 'P-S3' },
  examinedAt: new Date('2024-03-01T09:30:00Z'),
  accessionNumber: 'ACC-S3',
});

beforeAll(async () => {
  s3 = await startTestS3();
  app = await startTestApp({ config: { storage: s3.settings } });
  bucket = createS3Storage({ ...s3.settings, dataDir: app.config.dataDir });
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const fetchAs = (client: TestClient, url: string, headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}${url}`, { headers: { cookie: cookieHeader(client), ...headers } });

async function bytesOf(stream: Readable): Promise<Buffer> {
  return Buffer.concat(await stream.toArray());
}

describe('the portal on S3-compatible storage', () => {
  it('reports the bucket ready', async () => {
    const response = await fetch(`${app.baseUrl}/readyz`);
    expect(response.status).toBe(200);
    expect((await response.json()).checks).toMatchObject({ storage: 'ok' });
  });

  it("keeps the screenings' PDFs in the bucket and serves them from there", async () => {
    const documents = await insertDescribedScreeningDocuments(app.db, seed.patient.latestScreeningId, 2, '2024-03-05T12:00:00Z');
    await moveDocumentsIntoStore(app.db, bucket);
    const row = await app.db('document_contents').where('document_id', documents.descriptionPl).first('content', 'storage_key');
    expect(row.content).toBeNull();
    const stored = Buffer.concat(await (await bucket.openRead(row.storage_key)).toArray());
    const download = await fetchAs(patient, `/api/screening/download-result?documentId=${documents.descriptionPl}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(stored)).toBe(true);
  });

  it('stores an upload in the bucket as it was sent, leaving nothing in the local store', async () => {
    const parts = study.map((image, index) => ({ name: `study/IM${index + 1}.dcm`, bytes: Buffer.from(image.bytes) }));
    const response = await postDicoms(patient, app.baseUrl, parts);
    expect([response.status, response.body?.stored]).toEqual([200, 4]);
    const rows = await app
      .db('dicom_instances')
      .where('personal_data_id', seed.patient.personalDataId)
      .select('sop_instance_uid', 'storage_key');
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const sent = study.find((image) => image.sopInstanceUid === row.sop_instance_uid)!;
      expect((await bytesOf(await bucket.openRead(row.storage_key))).equals(Buffer.from(sent.bytes))).toBe(true);
      expect(await createFileStorage(app.config.dataDir).sizeOf(row.storage_key)).toBeUndefined();
    }
  });

  it('lists the images with their view tags read from the bucket, and serves one whole and by ranges', async () => {
    const listing = await patient.get('/api/images');
    expect(listing.status).toBe(200);
    const images = listing.body.sets.flatMap((set: { images: { id: string; laterality: string | null }[] }) => set.images);
    expect(images).toHaveLength(4);
    expect(images.every((image: { laterality: string | null }) => image.laterality === 'R' || image.laterality === 'L')).toBe(true);

    const { id } = images[0];
    const row = await app.db('dicom_instances').where('id', id).first('sop_instance_uid');
    const sent = Buffer.from(study.find((image) => image.sopInstanceUid === row.sop_instance_uid)!.bytes);

    const whole = await fetchAs(patient, `/api/images/${id}`);
    expect([whole.status, whole.headers.get('content-type'), whole.headers.get('accept-ranges')]).toEqual([
      200,
      'application/dicom',
      'bytes',
    ]);
    expect(Buffer.from(await whole.arrayBuffer()).equals(sent)).toBe(true);

    const marker = await fetchAs(patient, `/api/images/${id}`, { range: 'bytes=128-131' });
    expect([marker.status, marker.headers.get('content-range')]).toEqual([206, `bytes 128-131/${sent.length}`]);
    expect(Buffer.from(await marker.arrayBuffer()).toString('latin1')).toBe('DICM');

    const tail = await fetchAs(patient, `/api/images/${id}`, { range: 'bytes=-1000' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(sent.subarray(sent.length - 1000))).toBe(true);

    const beyond = await fetchAs(patient, `/api/images/${id}`, { range: `bytes=${sent.length}-` });
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${sent.length}`]);
    await beyond.arrayBuffer();
  });

  it('answers HEAD, If-None-Match and a stale If-Range as the file server did', async () => {
    const listing = await patient.get('/api/images');
    const { id, sizeBytes } = listing.body.sets[0].images[0];
    const head = await fetch(`${app.baseUrl}/api/images/${id}`, { method: 'HEAD', headers: { cookie: cookieHeader(patient) } });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(sizeBytes)]);
    const etag = head.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    // Through node:http: fetch adds `Cache-Control: no-cache` to a conditional request, which asks for the whole answer.
    const conditional = await new Promise<number | undefined>((resolve, reject) =>
      get(`${app.baseUrl}/api/images/${id}`, { headers: { cookie: cookieHeader(patient), 'if-none-match': etag } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject),
    );
    expect(conditional).toBe(304);
    const stale = await fetchAs(patient, `/api/images/${id}`, { range: 'bytes=0-3', 'if-range': '"another"' });
    expect([stale.status, (await stale.arrayBuffer()).byteLength]).toEqual([200, sizeBytes]);
    const current = await fetchAs(patient, `/api/images/${id}`, { range: 'bytes=0-3', 'if-range': etag });
    expect([current.status, (await current.arrayBuffer()).byteLength]).toEqual([206, 4]);
  });

  it('keeps the ISO disc image in the bucket as its layout and serves it whole and by ranges', { timeout: 60_000 }, async () => {
    const id = seed.patient.latestScreeningId;
    expect((await patient.post('/api/iso/generate', { id })).body).toEqual({ status: 'new' });
    const deadline = Date.now() + 30_000;
    while ((await patient.get(`/api/iso/status?id=${id}`)).body?.status !== 'done') {
      if (Date.now() > deadline) throw new Error('the ISO image was not built');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const row = await app.db('iso_images').where('screening_id', id).first('storage_key', 'size_bytes');
    // Its layout only: the images' bytes are read from their own objects.
    expect(await bucket.sizeOf(row.storage_key)).toBeLessThan(Number(row.size_bytes) / 4);

    const whole = await fetchAs(patient, `/api/iso?id=${id}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename=mammografia-.*\.iso$/);
    const iso = Buffer.from(await whole.arrayBuffer());
    expect(iso.length).toBe(Number(row.size_bytes));
    const isoFile = path.join(scratch, 'downloaded.iso');
    writeFileSync(isoFile, iso);
    expect(bsdtarFiles(isoFile)).toContain('DICOMDIR');
    const onDisc = bsdtarFiles(isoFile).filter((name) => name.startsWith('DICOM/'));
    expect(onDisc).toHaveLength(4);
    const sent = new Set(study.map((image) => Buffer.from(image.bytes).toString('base64')));
    for (const name of onDisc) expect(sent.has(extractFromIso(isoFile, name).toString('base64')), name).toBe(true);

    const descriptor = await fetchAs(patient, `/api/iso?id=${id}`, { range: 'bytes=32768-32773' });
    expect([descriptor.status, descriptor.headers.get('content-range')]).toEqual([206, `bytes 32768-32773/${iso.length}`]);
    expect(Buffer.from(await descriptor.arrayBuffer()).equals(Buffer.from([1, ...Buffer.from('CD001')]))).toBe(true);

    // The last bytes, to the end of the image.
    const start = iso.length - 3000;
    const end = await fetchAs(patient, `/api/iso?id=${id}`, { range: `bytes=${start}-` });
    expect(end.status).toBe(206);
    expect(Buffer.from(await end.arrayBuffer()).equals(iso.subarray(start))).toBe(true);
    // Inside the first image on the disc, read from its object by a range.
    const imageAt = iso.indexOf(Buffer.from(study[0]!.bytes).subarray(0, 4096));
    expect(imageAt).toBeGreaterThan(0);
    const inside = await fetchAs(patient, `/api/iso?id=${id}`, { range: `bytes=${imageAt + 500}-${imageAt + 70_499}` });
    expect(inside.status).toBe(206);
    expect(Buffer.from(await inside.arrayBuffer()).equals(iso.subarray(imageAt + 500, imageAt + 70_500))).toBe(true);

    const beyond = await fetchAs(patient, `/api/iso?id=${id}`, { range: `bytes=${iso.length}-` });
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${iso.length}`]);
    await beyond.arrayBuffer();
  });

  it('builds a disc byte for byte as the local backend does from the same files', { timeout: 60_000 }, async () => {
    const id = seed.patient.latestScreeningId;
    const local = createFileStorage(path.join(scratch, 'local'));
    const keys = await app.db('dicom_instances').where('personal_data_id', seed.patient.personalDataId).pluck('storage_key');
    for (const key of keys) await local.writeStream(key, await bucket.openRead(key));
    const now = new Date('2026-11-20T12:00:00Z');
    uids.fixed = '2.25.1234567890';
    const fromBucket = await buildScreeningDisc(app.db, bucket, app.config, id, now).finally(() => (uids.fixed = undefined));
    uids.fixed = '2.25.1234567890';
    const fromFolder = await buildScreeningDisc(app.db, local, app.config, id, now).finally(() => (uids.fixed = undefined));
    expect(fromBucket.sizeBytes).toBe(fromFolder.sizeBytes);
    const [a, b] = [
      await bytesOf(await bucket.openRead(fromBucket.storageKey)),
      await bytesOf(await local.openRead(fromFolder.storageKey)),
    ];
    expect(a.equals(b)).toBe(true);
    await bucket.remove(fromBucket.storageKey);
  });
});
