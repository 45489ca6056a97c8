import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../../tests/support/app';
import { schemaOf } from '../../db';
import { createFileStorage } from '../../lib/storage';
import { corpusFile, filesUnder } from '../upload-test-support';
import { sweepResumableUploads } from './expiry';
import { createUpload, patchUpload, syntheticMammogram, tusRequest } from './resumable-test-support';

/** Small limits, so a few corpus files reach the quota; the default expiry of 24 hours. */
const LIMITS = { maxFileBytes: 50_000, maxFilesPerRequest: 5, maxRequestBytes: 200_000, quotaBytes: 90_000, resumableExpiryHours: 24 };
const HOUR_MS = 60 * 60 * 1000;

let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;

const incomingDir = () => path.join(app.config.dataDir, 'storage', 'incoming');
const resumableDir = () => path.join(incomingDir(), 'resumable');
const uploadIds = () => app.db('resumable_uploads').orderBy('id').pluck('id');
const idOf = (location: string) => location.split('/').pop()!;
const sweep = (hoursLater: number) =>
  sweepResumableUploads(
    { db: app.db, storage: createFileStorage(app.config.dataDir), logger: { info: () => undefined, warn: () => undefined } as never },
    new Date(app.clock.now() + hoursLater * HOUR_MS),
  );

beforeAll(async () => {
  app = await startTestApp({ config: { upload: LIMITS } });
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('the quota at creation', () => {
  const locations: string[] = [];

  it('counts the declared length of her unfinished uploads as taken', async () => {
    const first = await createUpload(patient, app.baseUrl, 45_000, 'a.dcm');
    expect(first.status).toBe(201);
    locations.push(first.headers.get('location')!);
    const second = await createUpload(patient, app.baseUrl, 40_000, 'b.dcm');
    expect(second.status).toBe(201);
    locations.push(second.headers.get('location')!);

    const third = await createUpload(patient, app.baseUrl, 5_001, 'c.dcm');
    expect(third.status).toBe(413);
    expect(third.body).toEqual({ code: 'UPLOAD_QUOTA_EXCEEDED', quotaBytes: 90_000, usedBytes: 0, reservedBytes: 85_000 });
    expect(await uploadIds()).toHaveLength(2);
    expect((await createUpload(patient, app.baseUrl, 5_000, 'c.dcm')).status).toBe(201);
  });

  it('tells the upload page what her unfinished uploads hold, and until when', async () => {
    const limits = (await patient.get('/api/dicom/limits')).body;
    expect(limits).toMatchObject({ quotaBytes: 90_000, usedBytes: 0, reservedBytes: 90_000 });
    const hoursLeft = (Date.parse(limits.reservedUntil) - app.clock.now()) / HOUR_MS;
    expect(hoursLeft).toBeGreaterThan(app.config.upload.resumableExpiryHours - 1);
    expect(hoursLeft).toBeLessThanOrEqual(app.config.upload.resumableExpiryHours);
  });

  it('frees the reservation when an upload is cancelled, and counts stored images instead once complete', async () => {
    for (const location of locations) expect((await tusRequest(patient, app.baseUrl, 'DELETE', location)).status).toBe(204);
    const ct = corpusFile('CT_small.dcm'); // 39,206 bytes
    const stored = await createUpload(patient, app.baseUrl, ct.bytes.length, 'CT_small.dcm', { body: ct.bytes });
    expect(stored.headers.get('upload-outcome')).toBe('stored');

    // 39,206 stored + 5,000 reserved (c.dcm) + 45,795 > 90,000
    const refused = await createUpload(patient, app.baseUrl, 45_795, 'd.dcm');
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ code: 'UPLOAD_QUOTA_EXCEEDED', quotaBytes: 90_000, usedBytes: 39_206, reservedBytes: 5_000 });
    expect((await patient.get('/api/dicom/limits')).body).toMatchObject({ usedBytes: 39_206, reservedBytes: 5_000 });
    const fits = await createUpload(patient, app.baseUrl, 45_794, 'd.dcm');
    expect(fits.status).toBe(201);
    expect((await tusRequest(patient, app.baseUrl, 'DELETE', fits.headers.get('location')!)).status).toBe(204);
  });
});

describe('the expiry sweep', () => {
  it('removes unfinished uploads past their time (bytes and row), old outcomes and files without a row', async () => {
    const unfinished = (await createUpload(patient, app.baseUrl, 1000, 'late.dcm')).headers.get('location')!;
    expect((await patchUpload(patient, app.baseUrl, unfinished, 0, Buffer.alloc(400, 3))).status).toBe(204);
    expect(existsSync(path.join(resumableDir(), idOf(unfinished)))).toBe(true);
    const debris = path.join(resumableDir(), 'f'.repeat(32));
    writeFileSync(debris, 'left by a process that died');
    const stray = path.join(resumableDir(), 'stray.json');
    writeFileSync(stray, '{}');
    utimesSync(stray, new Date(0), new Date(0));
    const before = await uploadIds();

    // An hour before expiry nothing of hers goes; the debris does.
    expect(await sweep(23)).toEqual({ expired: 0, debris: 2 });
    expect(existsSync(debris) || existsSync(stray)).toBe(false);
    expect(await uploadIds()).toEqual(before);

    // Past 24 hours every upload of this file has expired: the unfinished ones with their bytes,
    // the completed one (CT_small) with its kept outcome.
    const result = await sweep(25);
    expect(result).toEqual({ expired: before.length, debris: 0 });
    expect(await uploadIds()).toEqual([]);
    expect(filesUnder(resumableDir())).toEqual([]);
    // The stored image stays.
    expect((await patient.get('/api/dicom')).body.studies).toHaveLength(1);
  });

  it('answers 404 for an unfinished upload past its time even before the sweep ran', async () => {
    const location = (await createUpload(patient, app.baseUrl, 1000, 'expiring.dcm')).headers.get('location')!;
    expect((await tusRequest(patient, app.baseUrl, 'HEAD', location)).status).toBe(200);
    // Its time runs out (the session's clock cannot be moved a day on: the session would end first).
    await app
      .db('resumable_uploads')
      .where('id', idOf(location))
      .update({ expires_at: new Date(app.clock.now() - 1000) });
    expect((await tusRequest(patient, app.baseUrl, 'HEAD', location)).status).toBe(404);
    expect((await patchUpload(patient, app.baseUrl, location, 0, Buffer.alloc(10))).status).toBe(404);
    expect((await patient.get(`${location}/outcome`)).status).toBe(404);
    // No longer reserved either: a new upload may take its bytes (39,206 stored + 50,000 = 89,206).
    const taking = await createUpload(patient, app.baseUrl, 50_000, 'new.dcm');
    expect(taking.status).toBe(201);
    expect((await tusRequest(patient, app.baseUrl, 'DELETE', taking.headers.get('location')!)).status).toBe(204);
  });

  it('runs as a periodic job of the shared queue', async () => {
    const queues = () => app.db.withSchema(schemaOf(app.db)!).from('queue').pluck('name');
    const deadline = Date.now() + 10_000;
    while (!(await queues()).includes('resumable-upload-sweep') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await queues()).toContain('resumable-upload-sweep');
  });

  it('skips its folder when the start-up clean-up of the incoming area runs', async () => {
    const { removeStaleIncoming } = await import('../multipart');
    await removeStaleIncoming(path.join(app.config.dataDir, 'storage', 'incoming'), Date.now() + 1000 * HOUR_MS);
    expect(existsSync(resumableDir())).toBe(true);
  });
});

it('keeps the outcome of a completed upload for the expiry time after it completed', async () => {
  const mr = corpusFile('MR_small.dcm');
  const created = await createUpload(patient, app.baseUrl, mr.bytes.length, 'MR_small.dcm', { body: mr.bytes });
  expect(created.headers.get('upload-outcome')).toBe('stored');
  const location = created.headers.get('location')!;
  await sweep(23);
  expect((await patient.get(`${location}/outcome`)).body).toEqual({ outcome: 'stored' });
  expect((await tusRequest(patient, app.baseUrl, 'HEAD', location)).headers.get('upload-offset')).toBe(String(mr.bytes.length));
  await sweep(25);
  expect((await patient.get(`${location}/outcome`)).status).toBe(404);
  expect(await uploadIds()).toEqual([]);
});

it('checks a file its creating request brings whole when it is stored, counting what her unfinished uploads reserve', async () => {
  // CT_small and MR_small (above) are stored: 49,036 bytes.
  expect((await patient.get('/api/dicom/limits')).body).toMatchObject({ usedBytes: 49_036, reservedBytes: 0 });
  const unfinished = await createUpload(patient, app.baseUrl, 25_000, 'unfinished.dcm');
  expect(unfinished.status).toBe(201);
  const [rowsBefore, incomingBefore] = [await uploadIds(), filesUnder(incomingDir())];
  const image = syntheticMammogram('whole-after-reservation', 0.02);
  // It fits beside her images, not beside them and the reservation.
  expect(49_036 + image.bytes.length).toBeLessThanOrEqual(90_000);
  expect(49_036 + 25_000 + image.bytes.length).toBeGreaterThan(90_000);

  const refused = await createUpload(patient, app.baseUrl, image.bytes.length, 'whole.dcm', { body: image.bytes });
  expect(refused.status).toBe(413);
  expect(refused.body).toEqual({ code: 'UPLOAD_QUOTA_EXCEEDED', quotaBytes: 90_000, usedBytes: 49_036, reservedBytes: 25_000 });
  expect(await uploadIds()).toEqual(rowsBefore);
  expect(filesUnder(incomingDir())).toEqual(incomingBefore);
  expect((await patient.get('/api/dicom/limits')).body).toMatchObject({ usedBytes: 49_036 });

  // The unfinished upload cancelled, the same file is stored.
  expect((await tusRequest(patient, app.baseUrl, 'DELETE', unfinished.headers.get('location')!)).status).toBe(204);
  const stored = await createUpload(patient, app.baseUrl, image.bytes.length, 'whole.dcm', { body: image.bytes });
  expect([stored.status, stored.headers.get('upload-outcome')]).toEqual([201, 'stored']);
  expect((await patient.get('/api/dicom/limits')).body).toMatchObject({ usedBytes: 49_036 + image.bytes.length });
});
