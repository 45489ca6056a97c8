import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { bsdtarFiles, dcmdumpDirectoryRecords, dcmftestAccepts, extractFromIso } from '../../tests/support/iso-checks';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';
import type { Db } from '../db';
import { AppError } from '../lib/errors';
import { createFileStorage, type FileStorage, type LocalFileStorage } from '../lib/storage';
import { buildScreeningDisc } from './build';
import { createIsoService } from './service';
import { invalidatePatientIsoImages, removeExpiredIsoImages, removeOrphanIsoFiles } from './retention';

const QUEUE_LIMIT = 2;
const INSTRUCTION = Buffer.from('%PDF-1.7\n% Instrukcja obrazu ISO\n');

let app: TestApp;
let seed: MinimalSeed;
let dataDir: string;
let storage: LocalFileStorage;
let guest: TestClient;
let patient: TestClient;
const nextAddress = addressSource('10.44.0');
const imageKeys = new Map<number, string[]>();

/** Images of screening `screeningId`, or (null) a study the patient uploaded herself. */
async function addImages(db: Db, screeningId: number | null, personalDataId: number, examinedAt: string, name: string): Promise<void> {
  const [lastName, firstName] = name.split('^') as [string, string];
  const images = synthesizeScreeningStudy({
    patient: { firstName, lastName, birthAt: '1968-04-12', patientId: `P${personalDataId}` },
    examinedAt: new Date(examinedAt),
    accessionNumber: `ACC${screeningId ?? 'UPLOAD'}`,
  });
  const keys: string[] = [];
  for (const image of images) {
    const key = storage.newKey('dicom', '.dcm');
    await storage.writeFile(key, image.bytes);
    keys.push(key);
    await db('dicom_instances').insert({
      personal_data_id: personalDataId,
      screening_id: screeningId,
      sop_instance_uid: image.sopInstanceUid,
      sop_class_uid: image.sopClassUid,
      study_instance_uid: image.studyInstanceUid,
      series_instance_uid: image.seriesInstanceUid,
      modality: image.modality,
      study_date: image.studyDate,
      storage_key: key,
      size_bytes: image.bytes.length,
    });
  }
  if (screeningId !== null) imageKeys.set(screeningId, keys);
}

async function waitForStatus(client: TestClient, query: string, wanted: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(`/api/iso/status${query}`);
    if (response.body?.status === wanted) return;
    if (Date.now() > deadline) throw new Error(`ISO status stayed ${JSON.stringify(response.body)} instead of ${wanted}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The disc image of `query`'s screening as the patient downloads it, written to a file for the tools. */
async function downloadedDisc(client: TestClient, query = ''): Promise<string> {
  const response = await fetch(`${app.baseUrl}/api/iso${query}`, { headers: { cookie: `portal.sid=${client.sessionCookie}` } });
  expect(response.status).toBe(200);
  const file = path.join(dataDir, `downloaded-${randomUUID()}.iso`);
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

async function isoRow(screeningId: number) {
  return app.db('iso_images').where('screening_id', screeningId).first();
}

function isoFilesOnDisk(): string[] {
  try {
    return readdirSync(path.join(dataDir, 'storage', 'iso'));
  } catch {
    return [];
  }
}

beforeAll(async () => {
  app = await startTestApp({ config: { iso: { queueLimit: QUEUE_LIMIT, retentionDays: 30 } } });
  dataDir = app.config.dataDir;
  storage = createFileStorage(dataDir);
  seed = await seedMinimal(app.db, app.config);
  await app.db('instructions').insert({ type: 'iso', language: 'pl', name: 'Instrukcja obrazu ISO.pdf', content: INSTRUCTION });
  const guestPerson = (await app.db('screenings').where('id', seed.guest.screeningId).first('personal_data_id')).personal_data_id;
  await addImages(app.db, seed.guest.screeningId, guestPerson, '2024-05-10T08:15:00Z', 'Gość^Maria');
  await addImages(app.db, seed.patient.latestScreeningId, seed.patient.personalDataId, '2024-03-01T09:30:00Z', 'Testowa^Anna');
  guest = app.client();
  expect((await guest.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('ISO disc image: request, build, download', () => {
  let isoFile: string;
  let isoSize: number;

  it('goes from no_request to new on request (audited) and to done when the job has built it', async () => {
    expect((await guest.get('/api/iso/status')).body).toEqual({ status: 'no_request' });
    const { ip, headers } = nextAddress();
    const response = await guest.post('/api/iso/generate', {}, { headers });
    expect([response.status, response.body]).toEqual([202, { status: 'new' }]);
    expect(await auditEntries(app.db, 'ISO_GENERATE', ip)).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: `screening ${seed.guest.screeningId}` },
    ]);
    await waitForStatus(guest, '', 'done');
    const row = await isoRow(seed.guest.screeningId);
    expect(row).toMatchObject({ status: 'done', attempts: 1, failure: null });
    isoSize = row.size_bytes;
    expect(isoFilesOnDisk()).toEqual([path.basename(row.storage_key)]);
  });

  it('costs no storage of its own: the images stay where they are stored, the disc keeps its layout only', async () => {
    const row = await isoRow(seed.guest.screeningId);
    const kept = readFileSync(storage.pathOf(row.storage_key));
    const images = imageKeys.get(seed.guest.screeningId)!.map((key) => readFileSync(storage.pathOf(key)));
    const imageBytes = images.reduce((total, image) => total + image.length, 0);
    expect(isoSize).toBeGreaterThan(imageBytes);
    expect(kept.length).toBeLessThan(imageBytes / 4);
    for (const image of images) expect(kept.includes(image.subarray(-4096))).toBe(false);
  });

  it('is downloaded as a named, uncacheable ISO 9660 image that bsdtar and dcmtk read', async () => {
    const response = await fetch(`${app.baseUrl}/api/iso`, { headers: { cookie: `portal.sid=${guest.sessionCookie}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-iso9660-image');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=mammografia-2024-05-10.iso');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(isoSize);
    isoFile = path.join(dataDir, 'downloaded.iso');
    writeFileSync(isoFile, bytes);

    const images = ['IM000001', 'IM000002', 'IM000003', 'IM000004'].map((name) => `DICOM/ST000001/SE000001/${name}`);
    expect(bsdtarFiles(isoFile)).toEqual([...images, 'DICOMDIR', 'Instrukcja obrazu ISO.pdf', 'README.TXT'].sort());
    for (const image of images) expect(dcmftestAccepts(extractFromIso(isoFile, image)), image).toBe(true);
    const { records } = dcmdumpDirectoryRecords(extractFromIso(isoFile, 'DICOMDIR'));
    expect(records.filter((record) => record.type === 'IMAGE').map((record) => record.fileId)).toEqual(images);
    expect(extractFromIso(isoFile, 'Instrukcja obrazu ISO.pdf').equals(INSTRUCTION)).toBe(true);
    expect(execFileSync('xorriso', ['-indev', isoFile, '-pvd_info'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })).toMatch(
      /Volume Id\s+:\s+MAMMO_20240510/,
    );
  });

  it('answers a range request with 206 and exactly those bytes, and an unsatisfiable one with 416', async () => {
    const cookie = `portal.sid=${guest.sessionCookie}`;
    const partial = await fetch(`${app.baseUrl}/api/iso`, { headers: { cookie, range: 'bytes=32768-32773' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 32768-32773/${isoSize}`);
    expect(Buffer.from(await partial.arrayBuffer()).equals(Buffer.from([1, ...Buffer.from('CD001')]))).toBe(true);

    const beyond = await fetch(`${app.baseUrl}/api/iso`, { headers: { cookie, range: `bytes=${isoSize}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${isoSize}`);
    await beyond.arrayBuffer();
  });

  it('answers ranges inside and across the images with the bytes of the whole download', async () => {
    const whole = readFileSync(isoFile);
    const firstImage = readFileSync(storage.pathOf(imageKeys.get(seed.guest.screeningId)![0]!));
    const imageAt = whole.indexOf(firstImage);
    expect(imageAt % 2048).toBe(0);
    const ranges = [
      [imageAt + 1000, imageAt + 1999],
      [imageAt + firstImage.length - 10, imageAt + firstImage.length + 5000],
      [100_000, isoSize - 100_000],
      [isoSize - 3000, isoSize - 1],
    ];
    for (const [start, end] of ranges) {
      const response = await fetch(`${app.baseUrl}/api/iso`, {
        headers: { cookie: `portal.sid=${guest.sessionCookie}`, range: `bytes=${start}-${end}` },
      });
      expect(response.status).toBe(206);
      expect(Buffer.from(await response.arrayBuffer()).equals(whole.subarray(start!, end! + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('still serves an image built whole before disc images were kept as their layout', async () => {
    const row = await isoRow(seed.guest.screeningId);
    const legacyKey = storage.newKey('iso', '.iso', `screening-${seed.guest.screeningId}-`);
    writeFileSync(storage.pathOf(legacyKey), readFileSync(isoFile));
    await app.db('iso_images').where('screening_id', seed.guest.screeningId).update({ storage_key: legacyKey });
    try {
      expect(readFileSync(await downloadedDisc(guest)).equals(readFileSync(isoFile))).toBe(true);
    } finally {
      await app.db('iso_images').where('screening_id', seed.guest.screeningId).update({ storage_key: row.storage_key });
      rmSync(storage.pathOf(legacyKey));
    }
  });

  it('answers a second request for a built image with its status and queues nothing', async () => {
    const { ip, headers } = nextAddress();
    const response = await guest.post('/api/iso/generate', {}, { headers });
    expect([response.status, response.body]).toEqual([202, { status: 'done' }]);
    expect(await auditEntries(app.db, 'ISO_GENERATE', ip)).toEqual([]);
  });

  it('turns into removed when the file is gone, and can be requested again', async () => {
    const row = await isoRow(seed.guest.screeningId);
    rmSync(storage.pathOf(row.storage_key));
    expect((await guest.get('/api/iso')).status).toBe(404);
    expect((await guest.get('/api/iso/status')).body).toEqual({ status: 'removed' });
    // What a process that died mid-build would have left: cleared by the next build.
    const remains = path.join(dataDir, 'storage', 'iso', `screening-${seed.guest.screeningId}-dead.iso.part`);
    writeFileSync(remains, 'half an image');
    expect((await guest.post('/api/iso/generate', {})).body).toEqual({ status: 'new' });
    await waitForStatus(guest, '', 'done');
    expect(isoFilesOnDisk()).toEqual([path.basename((await isoRow(seed.guest.screeningId)).storage_key)]);
  });
});

describe('ISO states and refusals', () => {
  it('is empty for a screening without images, which cannot be requested', async () => {
    const query = `?id=${seed.patient.olderScreeningId}`;
    expect((await patient.get(`/api/iso/status${query}`)).body).toEqual({ status: 'empty' });
    expect((await patient.post('/api/iso/generate', { id: seed.patient.olderScreeningId })).status).toBe(404);
  });

  it('reports new and in_progress while a build waits or runs, and a request then changes nothing', async () => {
    const id = seed.patient.latestScreeningId;
    await app.db('iso_images').insert({ screening_id: id, status: 'in_progress' });
    expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'in_progress' });
    expect((await patient.post('/api/iso/generate', { id })).body).toEqual({ status: 'in_progress' });
    await app.db('iso_images').where('screening_id', id).update({ status: 'new' });
    expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'new' });
    expect((await patient.get(`/api/iso?id=${id}`)).status).toBe(404);
    await app.db('iso_images').where('screening_id', id).delete();
  });

  it('refuses with 500 iso_generator_full_status when the queue holds its limit', async () => {
    await app.db('iso_images').insert([
      { screening_id: seed.patient.olderScreeningId, status: 'new' },
      { screening_id: seed.mustChange.screeningId, status: 'in_progress' },
    ]);
    try {
      const response = await patient.post('/api/iso/generate', { id: seed.patient.latestScreeningId });
      expect([response.status, response.body]).toEqual([500, { code: 'ISO_GENERATOR_BUSY', detail: 'iso_generator_full_status' }]);
      expect(await isoRow(seed.patient.latestScreeningId)).toBeUndefined();
    } finally {
      await app.db('iso_images').whereIn('screening_id', [seed.patient.olderScreeningId, seed.mustChange.screeningId]).delete();
    }
  });

  it('answers 503 no_connection and keeps no request when the job cannot be queued', async () => {
    const unreachable = createIsoService({
      db: app.db,
      storage,
      isoJobs: { enqueue: async () => false, abandon: async () => undefined },
      config: app.config,
      clock: Date.now,
    });
    const context = { caller: { kind: 'patient' as const, userId: seed.patient.userId, requirePasswordChange: false }, ip: '10.44.9.9' };
    const failure = await unreachable.generate(context, seed.patient.latestScreeningId).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 503, code: 'NO_CONNECTION', extra: { detail: 'no_connection' } });
    expect(await isoRow(seed.patient.latestScreeningId)).toBeUndefined();
  });

  it("gives a foreign or unknown screening the same 404 with ISO_UNAUTHORIZED or ISO_GENERATE_UNAUTHORIZED in the caller's log", async () => {
    for (const id of [seed.patient.latestScreeningId, 999_999]) {
      const { ip, headers } = nextAddress();
      expect((await guest.get(`/api/iso/status?id=${id}`, { headers })).status).toBe(404);
      expect((await guest.get(`/api/iso?id=${id}`, { headers })).status).toBe(404);
      expect((await guest.post('/api/iso/generate', { id }, { headers })).status).toBe(404);
      const owner = { user_id: null, screening_id: seed.guest.screeningId, description: `screening ${id}` };
      expect(await auditEntries(app.db, 'ISO_UNAUTHORIZED', ip)).toEqual([owner, owner]);
      expect(await auditEntries(app.db, 'ISO_GENERATE_UNAUTHORIZED', ip)).toEqual([owner]);
    }
    const { ip, headers } = nextAddress();
    expect((await patient.post('/api/iso/generate', { id: seed.guest.screeningId }, { headers })).status).toBe(404);
    expect(await auditEntries(app.db, 'ISO_GENERATE_UNAUTHORIZED', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: `screening ${seed.guest.screeningId}` },
    ]);
    expect(await isoRow(seed.guest.screeningId)).toMatchObject({ status: 'done' });
  });

  it('needs a session', async () => {
    const anonymous = app.client();
    await anonymous.fetchCsrf();
    expect((await anonymous.get('/api/iso/status')).status).toBe(401);
    expect((await anonymous.post('/api/iso/generate', {})).status).toBe(401);
  });
});

describe('a build whose process died mid-way', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  it('is offered again at once once its heartbeat stopped, and the new request builds the disc', async () => {
    const id = seed.patient.latestScreeningId;
    // What a process killed mid-build leaves: the row in progress, its job still "active" on the queue.
    await app.db('iso_images').insert({
      screening_id: id,
      status: 'in_progress',
      attempts: 1,
      started_at: minutesAgo(3),
      heartbeat_at: minutesAgo(2),
      job_id: '6f0f5b0e-0000-4000-8000-000000000001',
    });
    expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'no_request' });
    expect((await patient.get(`/api/screening/result?id=${id}`)).body.iso).toEqual({ status: 'no_request' });
    const response = await patient.post('/api/iso/generate', { id });
    expect([response.status, response.body]).toEqual([202, { status: 'new' }]);
    await waitForStatus(patient, `?id=${id}`, 'done');
    const row = await isoRow(id);
    expect(row.job_id).not.toBe('6f0f5b0e-0000-4000-8000-000000000001');
    expect(row.heartbeat_at).not.toBeNull();
    await storage.remove(row.storage_key);
    await app.db('iso_images').where('screening_id', id).delete();
  });

  it('is still in progress while its heartbeat is recent, and a request changes nothing', async () => {
    const id = seed.patient.olderScreeningId;
    await addImages(app.db, id, seed.patient.personalDataId, '2021-01-01T10:00:00Z', 'Testowa^Anna');
    await app.db('iso_images').insert({ screening_id: id, status: 'in_progress', started_at: minutesAgo(5), heartbeat_at: new Date() });
    try {
      expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'in_progress' });
      expect((await patient.post('/api/iso/generate', { id })).body).toEqual({ status: 'in_progress' });
    } finally {
      await app.db('iso_images').where('screening_id', id).delete();
      await app.db('dicom_instances').where('screening_id', id).delete();
    }
  });
});

describe('a build whose images are not as stored', () => {
  it('leaves no file behind, is retried, and ends failed (offered again as no_request)', async () => {
    const id = seed.patient.latestScreeningId;
    const filesBefore = isoFilesOnDisk();
    // The last image loses its tail after the header: the disc could not be read whole.
    const lastImage = storage.pathOf(imageKeys.get(id)![3]!);
    truncateSync(lastImage, 4096);
    const response = await patient.post('/api/iso/generate', { id });
    expect([response.status, response.body]).toEqual([202, { status: 'new' }]);

    const deadline = Date.now() + 30_000;
    while ((await isoRow(id))?.status !== 'failed') {
      if (Date.now() > deadline) throw new Error(`build did not fail: ${JSON.stringify(await isoRow(id))}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const row = await isoRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, storage_key: null, size_bytes: null });
    expect(row.failure).toMatch(/not as recorded/);
    expect(isoFilesOnDisk()).toEqual(filesBefore);
    expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'no_request' });
    expect((await patient.get(`/api/iso?id=${id}`)).status).toBe(404);
  });
});

describe('studies the patient uploaded', () => {
  const imagePaths = (study: number) => [1, 2, 3, 4].map((image) => `DICOM/ST00000${study}/SE000001/IM00000${image}`);

  async function builtDisc(id: number): Promise<string[]> {
    const response = await patient.post('/api/iso/generate', { id });
    expect([response.status, response.body]).toEqual([202, { status: 'new' }]);
    await waitForStatus(patient, `?id=${id}`, 'done');
    return bsdtarFiles(await downloadedDisc(patient, `?id=${id}`));
  }

  it('go on the disc of a screening that has no images of its own, which is then not empty', async () => {
    const id = seed.patient.olderScreeningId;
    await addImages(app.db, null, seed.patient.personalDataId, '2022-02-02T10:00:00Z', 'Testowa^Anna');
    expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'no_request' });
    // The result page says the same, by the same rule: her uploads make the disc not empty.
    expect((await patient.get(`/api/screening/result?id=${id}`)).body.iso).toEqual({ status: 'no_request' });
    const files = await builtDisc(id);
    expect(files.filter((file) => file.startsWith('DICOM/'))).toEqual(imagePaths(1));
  });

  it('make a built disc removed when more are stored, and the next disc holds them all', async () => {
    const id = seed.patient.olderScreeningId;
    const oldFile = storage.pathOf((await isoRow(id)).storage_key);
    const guestRowBefore = await isoRow(seed.guest.screeningId);
    await addImages(app.db, null, seed.patient.personalDataId, '2023-03-03T10:00:00Z', 'Testowa^Anna');
    await invalidatePatientIsoImages(app.db, storage, seed.patient.personalDataId);

    expect((await patient.get(`/api/iso/status?id=${id}`)).body).toEqual({ status: 'removed' });
    expect(isoFilesOnDisk()).not.toContain(path.basename(oldFile));
    // Another patient's disc is not hers to invalidate.
    expect(await isoRow(seed.guest.screeningId)).toEqual(guestRowBefore);

    const files = await builtDisc(id);
    expect(files.filter((file) => file.startsWith('DICOM/'))).toEqual([...imagePaths(1), ...imagePaths(2)]);
    const { records } = dcmdumpDirectoryRecords(extractFromIso(await downloadedDisc(patient, `?id=${id}`), 'DICOMDIR'));
    expect(records.filter((record) => record.type === 'STUDY')).toHaveLength(2);
  });
});

describe('an upload stored while a build runs', () => {
  it('fails that attempt, leaving no file, so the retry builds the disc with it', async () => {
    const id = seed.patient.olderScreeningId;
    const filesBefore = isoFilesOnDisk();
    // The upload lands just as the image has been written.
    const racing: FileStorage = {
      ...storage,
      writeFile: async (key, content) => {
        await storage.writeFile(key, content);
        await addImages(app.db, null, seed.patient.personalDataId, '2021-01-01T10:00:00Z', 'Testowa^Anna');
      },
    };
    const build = buildScreeningDisc(app.db, racing, app.config, id, new Date());
    await expect(build).rejects.toThrow(/changed during the build/);
    expect(isoFilesOnDisk()).toEqual(filesBefore);
  });
});

describe('retention of built images (ISO_RETENTION_DAYS)', () => {
  it('removes a built image and its file once it is older than the retention, and it can be built again', async () => {
    const id = seed.guest.screeningId;
    const row = await isoRow(id);
    expect(row.status).toBe('done');
    const dayMs = 24 * 60 * 60 * 1000;
    expect(await removeExpiredIsoImages(app.db, storage, new Date(app.clock.now() + 29 * dayMs), 30)).toBe(0);
    expect((await isoRow(id)).status).toBe('done');

    app.clock.advance(31 * dayMs);
    expect(await removeExpiredIsoImages(app.db, storage, new Date(app.clock.now()), 30)).toBeGreaterThanOrEqual(1);
    expect(await isoRow(id)).toMatchObject({ status: 'removed', storage_key: null, size_bytes: null });
    expect(isoFilesOnDisk()).not.toContain(path.basename(row.storage_key));

    // The session of before is past its lifetime now; a fresh one sees "generate" offered again.
    const again = app.client();
    expect((await again.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
    expect((await again.get('/api/iso/status')).body).toEqual({ status: 'removed' });
    expect((await again.post('/api/iso/generate', {})).body).toEqual({ status: 'new' });
    await waitForStatus(again, '', 'done');
  });

  it('removes a disc image file no row names (a build killed before recording it) once an hour old, keeping the built ones', async () => {
    const built = (await isoRow(seed.guest.screeningId)).storage_key as string;
    const orphan = storage.newKey('iso', '.iso', `${seed.guest.screeningId}-`);
    writeFileSync(storage.pathOf(orphan), 'a disc whose build died before its row said done');
    expect(await removeOrphanIsoFiles(app.db, storage, new Date())).toBe(0);
    expect(await removeOrphanIsoFiles(app.db, storage, new Date(Date.now() + 2 * 60 * 60 * 1000))).toBe(1);
    expect(isoFilesOnDisk()).not.toContain(path.basename(orphan));
    expect(isoFilesOnDisk()).toContain(path.basename(built));
  });
});
