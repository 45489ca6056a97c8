import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../../tests/support/app';
import type { FileStorage } from '../../lib/storage';
import { createS3Storage } from '../../lib/storage-s3';
import { startTestS3, type TestS3 } from '../../lib/storage-test-support';
import { filesUnder } from '../upload-test-support';
import { sweepResumableUploads } from './expiry';
import { abortedPatch, createUpload, patchUpload, syntheticMammogram, tusRequest } from './resumable-test-support';

/**
 * Resumable uploads with STORAGE=s3 (issue 16): the bytes of an unfinished upload wait in the
 * bucket, not on the disk of the process that took them, so any process can take the next request
 * (the cluster test kills one mid-upload); a finished image lands in the bucket and nothing is left.
 */
let s3: TestS3;
let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;
let bucket: FileStorage;
const HOUR_MS = 60 * 60 * 1000;

const partialObjects = async () => (await bucket.list('partial', '')).map((object) => object.key);
/** What lies on the process's own disk: nothing of an upload once its request has answered. */
const localLeftovers = () => filesUnder(path.join(app.config.dataDir, 'storage'));

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
});

describe('resumable uploads on S3-compatible storage', () => {
  it('keep the bytes in the bucket between requests, resume a cut request after its last bytes, and store the image there', async () => {
    const image = syntheticMammogram('bucket.dcm', 12);
    const first = 1024 * 1024;
    const created = await createUpload(patient, app.baseUrl, image.bytes.length, 'bucket.dcm', { body: image.bytes.subarray(0, first) });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    expect(await partialObjects()).toEqual([`partial/${id}`, `partial/${id}-${'0'.repeat(15)}`]);
    expect(localLeftovers()).toEqual([]);

    // The connection drops with 3 MB of the next part sent: what arrived is kept in the bucket.
    const started = Date.now();
    await abortedPatch(
      patient,
      app.baseUrl,
      location,
      first,
      image.bytes.subarray(first),
      3 * 1024 * 1024,
      () => Date.now() > started + 500,
    );
    let offset = first;
    const deadline = Date.now() + 10_000;
    while (offset === first && Date.now() < deadline) {
      offset = Number((await tusRequest(patient, app.baseUrl, 'HEAD', location)).headers.get('upload-offset'));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(offset).toBeGreaterThan(first);
    expect(offset).toBeLessThanOrEqual(first + 3 * 1024 * 1024);

    const rest = await patchUpload(patient, app.baseUrl, location, offset, image.bytes.subarray(offset));
    expect([rest.status, rest.headers.get('upload-outcome')]).toEqual([204, 'stored']);
    const stored = await app.db('dicom_instances').where({ sop_instance_uid: image.sopInstanceUid }).first('storage_key');
    const kept = Buffer.concat(await (await bucket.openRead(stored.storage_key)).toArray());
    expect(kept.subarray(128).equals(image.bytes.subarray(128))).toBe(true);
    expect(await partialObjects()).toEqual([]);
    expect(localLeftovers()).toEqual([]);
  });

  it('stores a file its creating request brings whole into the bucket, and leaves nothing else there or on the disk', async () => {
    const image = syntheticMammogram('whole.dcm', 2);
    const created = await createUpload(patient, app.baseUrl, image.bytes.length, 'whole.dcm', { body: image.bytes });
    expect([created.status, created.headers.get('upload-outcome')]).toEqual([201, 'stored']);
    const stored = await app.db('dicom_instances').where({ sop_instance_uid: image.sopInstanceUid }).first('storage_key');
    const kept = Buffer.concat(await (await bucket.openRead(stored.storage_key)).toArray());
    expect(kept.subarray(128).equals(image.bytes.subarray(128))).toBe(true);
    expect(await partialObjects()).toEqual([]);
    expect(localLeftovers()).toEqual([]);
    expect((await patient.get(`${created.headers.get('location')}/outcome`)).body).toEqual({ outcome: 'stored' });
  });

  it('removes the bytes of an upload she ends (termination)', async () => {
    const image = syntheticMammogram('ended.dcm', 2);
    const created = await createUpload(patient, app.baseUrl, image.bytes.length, 'ended.dcm', { body: image.bytes.subarray(0, 50_000) });
    expect((await partialObjects()).length).toBe(2);
    expect((await tusRequest(patient, app.baseUrl, 'DELETE', created.headers.get('location')!)).status).toBe(204);
    expect(await partialObjects()).toEqual([]);
  });

  it('sweeps the bytes of uploads past their time and those no upload names', async () => {
    const image = syntheticMammogram('forgotten.dcm', 2);
    await createUpload(patient, app.baseUrl, image.bytes.length, 'forgotten.dcm', { body: image.bytes.subarray(0, 50_000) });
    const stray = `partial/${randomBytes(16).toString('hex')}`;
    await bucket.writeFile(stray, Buffer.alloc(0));
    expect((await partialObjects()).length).toBe(3);
    const result = await sweepResumableUploads(
      { db: app.db, storage: bucket, logger: { info: () => undefined, warn: () => undefined } as never },
      new Date(app.clock.now() + 25 * HOUR_MS),
    );
    // Expired: this one, and the rows of the first two tests' uploads, whose outcomes were kept long enough.
    expect(result).toEqual({ expired: 3, debris: 1 });
    expect(await partialObjects()).toEqual([]);
  });
});
