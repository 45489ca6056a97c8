import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../../tests/support/app';
import { addressSource, auditEntries } from '../../../tests/support/ownership';
import { dcmftestAccepts } from '../../../tests/support/iso-checks';
import { createFileStorage } from '../../lib/storage';
import { cookieHeader, corpusFile, filesUnder } from '../upload-test-support';
import {
  OCTETS,
  TUS,
  UPLOADS,
  abortedPatch,
  createUpload,
  metadataHeader,
  patchUpload,
  syntheticMammogram,
  tusRequest,
} from './resumable-test-support';

let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;
const nextAddress = addressSource('10.57.0');

const CT_SMALL_UID = '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322';
const storageDir = () => path.join(app.config.dataDir, 'storage');
const resumableFiles = () => filesUnder(path.join(storageDir(), 'incoming', 'resumable'));
/** The files sent whole in their creating request, while that request runs (layout.ts wholeUploadFileOf). */
const wholeFiles = () => filesUnder(path.join(storageDir(), 'incoming')).filter((name) => name.endsWith('.whole'));
const uploadRow = (location: string) => app.db('resumable_uploads').where('id', location.split('/').pop()).first();
const storedRow = (sopInstanceUid: string) =>
  app.db('dicom_instances').where({ personal_data_id: seed.patient.personalDataId, sop_instance_uid: sopInstanceUid }).first();

/** The stored file equals what was sent but for the 128-byte preamble, which is zeros. */
function expectStoredAsSent(storageKey: string, sent: Buffer): void {
  const stored = readFileSync(path.join(storageDir(), storageKey));
  expect(stored.length).toBe(sent.length);
  expect(stored.subarray(0, 128).every((byte) => byte === 0)).toBe(true);
  expect(stored.subarray(128).equals(sent.subarray(128))).toBe(true);
}

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('a small file in one request (creation-with-upload)', () => {
  const file = corpusFile('CT_small.dcm');
  let location: string;

  it('stores it, answers the outcome on the creating request and lists it', async () => {
    const { ip, headers } = nextAddress();
    const response = await createUpload(patient, app.baseUrl, file.bytes.length, 'folder/CT_small.dcm', { body: file.bytes, headers });

    expect(response.status).toBe(201);
    location = response.headers.get('location')!;
    expect(location).toMatch(/^\/api\/dicom\/uploads\/[0-9a-f]{32}$/);
    expect(response.headers.get('upload-offset')).toBe(String(file.bytes.length));
    expect(response.headers.get('upload-outcome')).toBe('stored');
    expect(response.headers.get('upload-refusal')).toBeNull();
    expect(response.headers.get('tus-resumable')).toBe('1.0.0');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();

    const row = await storedRow(CT_SMALL_UID);
    expect(row).toMatchObject({ screening_id: null, uploaded_by_user_id: seed.patient.userId, modality: 'CT', size_bytes: 39206 });
    expectStoredAsSent(row.storage_key, file.bytes);
    expect(dcmftestAccepts(readFileSync(path.join(storageDir(), row.storage_key)))).toBe(true);
    expect(resumableFiles()).toEqual([]);
    expect(wholeFiles()).toEqual([]);
    // Its row, written as it was stored, keeps the outcome for the client to ask.
    expect(await uploadRow(location)).toMatchObject({ outcome: 'stored', length: expect.anything(), batch: location.split('/').at(-1) });
    // One file without a batch is a batch of its own; its entry waits until the pick is reported.
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([]);
    const uploadId = location.split('/').at(-1)!;
    const report = await patient.post(`/api/dicom/uploads/batches/${uploadId}/report`);
    expect(report.status).toBe(400); // not a UUID: a batch the client names is one it made

    const studies = (await patient.get('/api/dicom')).body.studies;
    expect(studies).toContainEqual(
      expect.objectContaining({ studyInstanceUid: '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322', instances: 1 }),
    );
    expect((await patient.get('/api/dicom/limits')).body.usedBytes).toBe(39206);
  });

  it('answers HEAD with its full length and the outcome once more', async () => {
    const head = await tusRequest(patient, app.baseUrl, 'HEAD', location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(file.bytes.length));
    expect(head.headers.get('upload-length')).toBe(String(file.bytes.length));
    expect(head.headers.get('cache-control')).toBe('no-store');

    const outcome = await patient.get(`${location}/outcome`);
    expect(outcome.status).toBe(200);
    expect(outcome.body).toEqual({ outcome: 'stored' });
  });

  it('answers a repeated last PATCH with the same outcome, and any other offset with a conflict', async () => {
    const repeated = await patchUpload(patient, app.baseUrl, location, file.bytes.length, new Uint8Array());
    expect(repeated.status).toBe(204);
    expect(repeated.headers.get('upload-outcome')).toBe('stored');
    const conflict = await patchUpload(patient, app.baseUrl, location, 0, file.bytes);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ code: 'UPLOAD_OFFSET_CONFLICT' });
  });

  it('counts the same image sent again as a duplicate and keeps no second copy', async () => {
    const before = filesUnder(path.join(storageDir(), 'dicom'));
    const response = await createUpload(patient, app.baseUrl, file.bytes.length, 'again/CT_small.dcm', { body: file.bytes });
    expect(response.status).toBe(201);
    expect(response.headers.get('upload-outcome')).toBe('duplicate');
    expect(filesUnder(path.join(storageDir(), 'dicom'))).toEqual(before);
    expect(resumableFiles()).toEqual([]);
    expect(wholeFiles()).toEqual([]);
    expect((await patient.get(`${response.headers.get('location')}/outcome`)).body).toEqual({ outcome: 'duplicate' });
  });
});

describe('the built disc images of her screenings', () => {
  it('are dropped as a file of a pick is stored, though the pick is never reported', async () => {
    const screeningId = seed.patient.latestScreeningId;
    const storage = createFileStorage(app.config.dataDir);
    const isoKey = storage.newKey('iso', '.iso');
    await storage.writeFile(isoKey, Buffer.from('an ISO image built before the upload'));
    await app
      .db('iso_images')
      .insert({ screening_id: screeningId, status: 'done', storage_key: isoKey, size_bytes: 36, finished_at: new Date() });
    expect((await patient.get(`/api/iso/status?id=${screeningId}`)).body).toEqual({ status: 'done' });

    const image = syntheticMammogram('disc', 0.1);
    const metadata = metadataHeader({ name: 'pick/disc.dcm', batch: randomUUID() });
    const response = await createUpload(patient, app.baseUrl, image.bytes.length, 'pick/disc.dcm', {
      body: image.bytes,
      headers: { 'upload-metadata': metadata },
    });
    expect(response.headers.get('upload-outcome')).toBe('stored');

    // With the image's commit, not when the pick is reported: a closed tab never reports it.
    expect((await patient.get(`/api/iso/status?id=${screeningId}`)).body).toEqual({ status: 'removed' });
    expect(existsSync(storage.pathOf(isoKey))).toBe(false);
  });
});

describe('files that are not stored', () => {
  it('refuses a file without the DICM marker, with its reason', async () => {
    const bytes = Buffer.alloc(4000, 7);
    const response = await createUpload(patient, app.baseUrl, bytes.length, 'notes.txt', { body: bytes });
    expect(response.status).toBe(201);
    expect(response.headers.get('upload-outcome')).toBe('refused');
    expect(response.headers.get('upload-refusal')).toBe('not_dicom');
    const outcome = await patient.get(`${response.headers.get('location')}/outcome`);
    expect(outcome.body).toEqual({ outcome: 'refused', reason: 'not_dicom' });
    expect(resumableFiles()).toEqual([]);
  });

  it('skips a DICOMDIR', async () => {
    const dicomdir = corpusFile('dicomdirtests/DICOMDIR');
    const response = await createUpload(patient, app.baseUrl, dicomdir.bytes.length, 'disc/DICOMDIR', { body: dicomdir.bytes });
    expect(response.headers.get('upload-outcome')).toBe('refused');
    expect(response.headers.get('upload-refusal')).toBe('dicomdir');
  });

  it('refuses a truncated image as unreadable', async () => {
    const truncated = corpusFile('MR_truncated.dcm');
    const response = await createUpload(patient, app.baseUrl, truncated.bytes.length, 'MR_truncated.dcm', { body: truncated.bytes });
    expect(response.headers.get('upload-refusal')).toBe('unreadable');
  });
});

describe('a big file in chunks, with a connection that drops midway', () => {
  it('resumes from the stored offset and stores the file whole', async () => {
    const image = syntheticMammogram('chunked', 4);
    const length = image.bytes.length;
    const created = await createUpload(patient, app.baseUrl, length, 'study/big.dcm');
    expect(created.status).toBe(201);
    expect(created.headers.get('upload-offset')).toBeNull();
    expect(created.headers.get('upload-expires')).toBeTruthy();
    const location = created.headers.get('location')!;

    const firstChunk = 1024 * 1024;
    const first = await patchUpload(patient, app.baseUrl, location, 0, image.bytes.subarray(0, firstChunk));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(firstChunk));
    expect(first.headers.get('upload-outcome')).toBeNull();

    // The next chunk is cut after half of it.
    const rest = image.bytes.subarray(firstChunk);
    const bytesOnDisk = () => statSync(path.join(storageDir(), 'incoming', 'resumable', location.split('/').pop()!)).size;
    await abortedPatch(patient, app.baseUrl, location, firstChunk, rest, Math.floor(rest.length / 2), () => bytesOnDisk() > firstChunk);
    const head = await tusRequest(patient, app.baseUrl, 'HEAD', location);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(firstChunk);
    expect(offset).toBeLessThanOrEqual(firstChunk + Math.floor(rest.length / 2));
    expect(head.headers.get('upload-length')).toBe(String(length));

    const incomplete = await patient.get(`${location}/outcome`);
    expect(incomplete.status).toBe(409);
    expect(incomplete.body).toEqual({ code: 'UPLOAD_INCOMPLETE', offset, length });
    // Unfinished: not listed, not counted.
    expect(await storedRow(image.sopInstanceUid)).toBeUndefined();

    const last = await patchUpload(patient, app.baseUrl, location, offset, image.bytes.subarray(offset));
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(length));
    expect(last.headers.get('upload-outcome')).toBe('stored');
    expectStoredAsSent((await storedRow(image.sopInstanceUid)).storage_key, image.bytes);
    expect(resumableFiles()).toEqual([]);
    const row = await uploadRow(location);
    expect({ outcome: row.outcome, length: Number(row.length) }).toEqual({ outcome: 'stored', length });
  });
});

describe('who may use an upload', () => {
  let location: string;
  let other: TestClient;

  beforeAll(async () => {
    const created = await createUpload(patient, app.baseUrl, 1000, 'mine.dcm');
    location = created.headers.get('location')!;
    other = await otherPatient();
  });

  async function otherPatient(): Promise<TestClient> {
    const { insertAccount, insertPerson } = await import('../../../tests/support/seed-minimal');
    const personId = await insertPerson(app.db, { firstName: 'Inna', lastName: 'Pacjentka', birthAt: '1980-01-01' });
    await insertAccount(app.db, personId, { email: 'inna@example.com', password: 'Inne!Haslo12' });
    const client = app.client();
    expect((await client.loginPortal('inna@example.com', 'Inne!Haslo12')).status).toBe(200);
    return client;
  }

  it("answers 404 to another patient's HEAD, PATCH, DELETE and outcome, and changes nothing", async () => {
    expect((await tusRequest(other, app.baseUrl, 'HEAD', location)).status).toBe(404);
    const patch = await patchUpload(other, app.baseUrl, location, 0, Buffer.alloc(10));
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ code: 'NOT_FOUND' });
    expect((await tusRequest(other, app.baseUrl, 'DELETE', location)).status).toBe(404);
    expect((await other.get(`${location}/outcome`)).status).toBe(404);
    const head = await tusRequest(patient, app.baseUrl, 'HEAD', location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await tusRequest(patient, app.baseUrl, 'HEAD', `${UPLOADS}/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await patchUpload(patient, app.baseUrl, `${UPLOADS}/..%2F..%2Fdicom`, 0, Buffer.alloc(1))).status).toBe(404);
  });

  it('answers a guest session 404 and no session 401', async () => {
    const guest = await seededSignIns(app, seed).guest();
    const asGuest = await createUpload(guest, app.baseUrl, 10, 'x.dcm');
    expect(asGuest.status).toBe(404);
    expect(asGuest.body).toEqual({ code: 'NOT_FOUND' });
    expect((await tusRequest(guest, app.baseUrl, 'HEAD', location)).status).toBe(404);
    const anonymous = app.client();
    expect((await tusRequest(anonymous, app.baseUrl, 'HEAD', location)).status).toBe(401);
  });

  it('refuses a state-changing request without the CSRF header', async () => {
    const create = await createUpload(patient, app.baseUrl, 10, 'x.dcm', { withoutCsrf: true });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
    expect((await patchUpload(patient, app.baseUrl, location, 0, Buffer.alloc(10), { withoutCsrf: true })).status).toBe(403);
    expect((await tusRequest(patient, app.baseUrl, 'DELETE', location, { withoutCsrf: true })).status).toBe(403);
  });

  it('cancels with DELETE: bytes and row go, the upload is gone', async () => {
    const patch = await patchUpload(patient, app.baseUrl, location, 0, Buffer.alloc(500, 1));
    expect(patch.status).toBe(204);
    const id = location.split('/').pop()!;
    expect(resumableFiles()).toContain(id);
    const removed = await tusRequest(patient, app.baseUrl, 'DELETE', location);
    expect(removed.status).toBe(204);
    expect(resumableFiles()).not.toContain(id);
    expect(await uploadRow(location)).toBeUndefined();
    expect((await tusRequest(patient, app.baseUrl, 'HEAD', location)).status).toBe(404);
  });
});

describe('malformed tus requests', () => {
  it('refuses creations before anything is kept', async () => {
    const rows = async () => Number((await app.db('resumable_uploads').count({ n: '*' }))[0]!.n);
    const before = await rows();
    const tooLarge = await createUpload(patient, app.baseUrl, app.config.upload.maxFileBytes + 1, 'huge.dcm');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ code: 'UPLOAD_FILE_TOO_LARGE', maxFileBytes: app.config.upload.maxFileBytes });
    const malformed: Record<string, string>[] = [
      { 'upload-length': '-1' },
      { 'upload-length': '1e3' },
      { 'upload-metadata': 'filename ZmlsZQ==' },
      { 'upload-metadata': 'name !!!' },
      { 'upload-defer-length': '1' },
      { 'upload-concat': 'partial' },
    ];
    for (const headers of malformed) {
      const response = await createUpload(patient, app.baseUrl, 10, 'x.dcm', { headers });
      expect({ headers, status: response.status, body: response.body }).toEqual({
        headers,
        status: 400,
        body: { code: 'UPLOAD_BAD_REQUEST' },
      });
    }
    const noVersion = await createUpload(patient, app.baseUrl, 10, 'x.dcm', { headers: { 'tus-resumable': '0.2.2' } });
    expect(noVersion.status).toBe(412);
    expect(noVersion.body).toEqual({ code: 'UPLOAD_BAD_REQUEST' });
    expect(await rows()).toBe(before);
  });

  it('answers a PATCH with the wrong content type 415 and a wrong offset 409', async () => {
    const location = (await createUpload(patient, app.baseUrl, 100, 'x.dcm')).headers.get('location')!;
    const wrongType = await patchUpload(patient, app.baseUrl, location, 0, Buffer.alloc(10), {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const wrongOffset = await patchUpload(patient, app.baseUrl, location, 5, Buffer.alloc(10));
    expect(wrongOffset.status).toBe(409);
    expect(wrongOffset.body).toEqual({ code: 'UPLOAD_OFFSET_CONFLICT' });
    const tooLong = await patchUpload(patient, app.baseUrl, location, 0, Buffer.alloc(101));
    expect(tooLong.status).toBe(413);
    expect((await tusRequest(patient, app.baseUrl, 'HEAD', location)).headers.get('upload-offset')).toBe('0');
  });

  it('advertises the protocol on OPTIONS', async () => {
    const options = await tusRequest(patient, app.baseUrl, 'OPTIONS', UPLOADS);
    expect(options.status).toBe(204);
    expect(options.headers.get('tus-version')).toBe('1.0.0');
    expect(options.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination,expiration');
    expect(options.headers.get('tus-max-size')).toBe(String(app.config.upload.maxFileBytes));
  });
});

describe('POST /api/dicom/uploads/known', () => {
  it('answers the instances she already has', async () => {
    const response = await patient.post(`${UPLOADS}/known`, { sopInstanceUids: [CT_SMALL_UID, '1.2.3.4', CT_SMALL_UID] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ known: [CT_SMALL_UID] });
  });

  it('refuses more than 1000 UIDs, or anything that is not a UID', async () => {
    const many = Array.from({ length: 1001 }, (_, index) => `1.2.${index}`);
    for (const body of [{ sopInstanceUids: many }, { sopInstanceUids: ['1.2.x'] }, { sopInstanceUids: '1.2' }, {}]) {
      const response = await patient.post(`${UPLOADS}/known`, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'UPLOAD_BAD_REQUEST' });
    }
    expect((await patient.post(`${UPLOADS}/known`, { sopInstanceUids: many.slice(0, 1000) })).status).toBe(200);
  });

  it('is for patients only, with the CSRF header', async () => {
    const guest = await seededSignIns(app, seed).guest();
    expect((await guest.post(`${UPLOADS}/known`, { sopInstanceUids: [] })).status).toBe(404);
    expect((await patient.post(`${UPLOADS}/known`, { sopInstanceUids: [] }, { withoutCsrf: true })).status).toBe(403);
  });
});

describe('creations whose body stops early', () => {
  it('keeps an upload whose first request sent less than declared, for the rest to follow', async () => {
    const image = syntheticMammogram('short-creation', 1);
    const response = await createUpload(patient, app.baseUrl, image.bytes.length + 10, 'short.dcm', { body: image.bytes });
    expect(response.status).toBe(201);
    expect(response.headers.get('upload-offset')).toBe(String(image.bytes.length));
    expect(response.headers.get('upload-outcome')).toBeNull();
    const id = response.headers.get('location')!.split('/').pop()!;
    expect(resumableFiles()).toContain(id);
  });

  it('leaves nothing of a creation whose connection broke: the client never learnt where it is', async () => {
    const rowsBefore = await app.db('resumable_uploads').pluck('id');
    const filesBefore = resumableFiles();
    const image = syntheticMammogram('broken-creation', 2);
    // The body was to bring part of the file: the upload was reserved, and its bytes are among the unfinished ones.
    const request = openCreation(image.bytes.length + 10, 'broken.dcm', image.bytes.length);
    await new Promise<void>((resolve) => request.write(image.bytes.subarray(0, image.bytes.length / 2), () => resolve()));
    await waitFor(async () => (await app.db('resumable_uploads').pluck('id')).length > rowsBefore.length);
    const closed = new Promise((resolve) => request.once('close', resolve));
    request.destroy();
    await closed;
    await waitFor(async () => (await app.db('resumable_uploads').pluck('id')).length === rowsBefore.length);
    await waitFor(async () => resumableFiles().length === filesBefore.length);
  });

  it('leaves nothing of a creation that was to bring the whole file when its connection broke', async () => {
    const rowsBefore = await app.db('resumable_uploads').pluck('id');
    const image = syntheticMammogram('broken-whole-creation', 2);
    const request = openCreation(image.bytes.length, 'broken-whole.dcm');
    await new Promise<void>((resolve) => request.write(image.bytes.subarray(0, image.bytes.length / 2), () => resolve()));
    await waitFor(() => wholeFiles().length === 1);
    const closed = new Promise((resolve) => request.once('close', resolve));
    request.destroy();
    await closed;
    await waitFor(() => wholeFiles().length === 0);
    // No row was ever written for it: it is stored, with its row, only once every byte is there.
    expect(await app.db('resumable_uploads').pluck('id')).toEqual(rowsBefore);
  });

  it('leaves nothing of a creation whose client went away before the body was read (while its reservation waited)', async () => {
    const rowsBefore = await app.db('resumable_uploads').pluck('id');
    const image = syntheticMammogram('gone-before-body', 2);
    // The reservation waits on this lock (on PGlite, on the one connection): the client goes away meanwhile.
    const blocker = await app.db.transaction();
    await blocker.raw('LOCK TABLE resumable_uploads IN ACCESS EXCLUSIVE MODE');
    const request = openCreation(image.bytes.length + 10, 'gone.dcm', image.bytes.length);
    request.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closed = new Promise((resolve) => request.once('close', resolve));
    request.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    await blocker.commit();
    await waitFor(async () => (await app.db('resumable_uploads').pluck('id')).length === rowsBefore.length);
  });
});

/** A creation-with-upload request whose body the test sends (or not) itself, as a browser that may go away. */
function openCreation(length: number, name: string, bodyLength = length): http.ClientRequest {
  const request = http.request(`${app.baseUrl}${UPLOADS}`, {
    method: 'POST',
    headers: {
      ...TUS,
      ...OCTETS,
      'upload-length': String(length),
      'upload-metadata': metadataHeader({ name }),
      'content-length': String(bodyLength),
      cookie: cookieHeader(patient),
      'x-csrf-token': patient.csrfToken!,
    },
  });
  request.on('error', () => undefined);
  return request;
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('logs no error, no stack and nothing of the files for any of the above', () => {
  const lines = app.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  const text = app.logs.join('\n');
  for (const name of ['CT_small.dcm', 'DICOMDIR', 'notes.txt', 'big.dcm', 'Testowa']) expect(text).not.toContain(name);
  expect(text).not.toMatch(/"stack"/);
});
