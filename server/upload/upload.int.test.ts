import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadRefusalReason } from '../../common/types/upload';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { schemaOf } from '../db';
import { createFileStorage } from '../lib/storage';
import { dcmftestAccepts } from '../../tests/support/iso-checks';
import { insertAccount, insertPerson } from '../../tests/support/seed-minimal';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { removeStaleIncoming } from './multipart';
import { corpusFile, corpusFiles, filesUnder, postDicoms } from './upload-test-support';

let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;
const nextAddress = addressSource('10.55.0');

const storageDir = () => path.join(app.config.dataDir, 'storage');
const incomingFiles = () => filesUnder(path.join(storageDir(), 'incoming'));

/**
 * What each corpus file must become, checked one by one with dcmdump: the marker at 128-131, the
 * SOP class, and whether pixel data is present and complete.
 */
function expectedFate(name: string): UploadRefusalReason | 'image' {
  if (name === 'README.md' || name === 'ExplVR_LitEndNoMeta.dcm') return 'not_dicom'; // no DICM at 128
  if (path.basename(name) === 'DICOMDIR') return 'dicomdir'; // Media Storage Directory Storage
  if (name === 'MR_truncated.dcm') return 'unreadable'; // PixelData of 8192 bytes, 8130 left in the file
  if (name.startsWith('dicomdirtests/TINY_ALPHA/')) return 'not_image'; // CT Image Storage objects without PixelData
  return 'image';
}

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('POST /api/dicom with the real corpus', () => {
  const corpus = corpusFiles();
  const images = corpus.filter((file) => expectedFate(file.name) === 'image');

  it('stores every image once, skips DICOMDIR and refuses the rest with its reason', async () => {
    expect(corpus).toHaveLength(90);
    const { ip, headers } = nextAddress();
    const response = await postDicoms(patient, app.baseUrl, corpus, { headers });

    expect(response.status).toBe(200);
    // MR_small.dcm and MR_small_implicit.dcm are one SOP instance in two transfer syntaxes.
    expect(response.body.stored).toBe(images.length - 1);
    expect(response.body.duplicates).toBe(1);
    const refused = corpus
      .filter((file) => expectedFate(file.name) !== 'image')
      .map((file) => ({ name: file.name, reason: expectedFate(file.name) }));
    expect(response.body.refused).toEqual(refused);
    expect(response.body.stored + response.body.duplicates + response.body.refused.length).toBe(corpus.length);
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([
      {
        user_id: seed.patient.userId,
        screening_id: null,
        description: `stored ${images.length - 1}, duplicates 1, refused ${refused.length}`,
      },
    ]);
    expect(incomingFiles()).toEqual([]);
  });

  it('keeps the header fields and a file under a generated name with a zeroed preamble', async () => {
    const rows = await app.db('dicom_instances').where('personal_data_id', seed.patient.personalDataId).orderBy('sop_instance_uid');
    expect(rows).toHaveLength(images.length - 1);
    expect(filesUnder(path.join(storageDir(), 'dicom'))).toHaveLength(rows.length);

    const ct = rows.find((row) => row.sop_instance_uid === '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322');
    expect(ct).toMatchObject({
      screening_id: null,
      uploaded_by_user_id: seed.patient.userId,
      sop_class_uid: '1.2.840.10008.5.1.4.1.1.2',
      study_instance_uid: '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322',
      series_instance_uid: '1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322',
      modality: 'CT',
      study_date: '2004-01-19',
      size_bytes: 39206,
    });
    expect(ct.storage_key).toMatch(/^dicom\/[0-9a-f-]{36}\.dcm$/);

    const original = corpusFile('CT_small.dcm').bytes;
    const stored = readFileSync(path.join(storageDir(), ct.storage_key));
    expect(original.subarray(0, 128).some((byte) => byte !== 0)).toBe(true);
    expect(stored.subarray(0, 128).every((byte) => byte === 0)).toBe(true);
    expect(stored.subarray(128).equals(original.subarray(128))).toBe(true);
    expect(dcmftestAccepts(stored)).toBe(true);
  });

  it('counts a second upload of the same folder as duplicates and stores nothing new', async () => {
    const before = filesUnder(path.join(storageDir(), 'dicom'));
    const response = await postDicoms(patient, app.baseUrl, corpus);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ stored: 0, duplicates: images.length });
    expect(filesUnder(path.join(storageDir(), 'dicom'))).toEqual(before);
    expect(incomingFiles()).toEqual([]);
  });

  it('lists the uploaded studies with their instances, modalities and sizes', async () => {
    const response = await patient.get('/api/dicom');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const studies = response.body.studies;
    expect(studies).toHaveLength(9);
    expect(studies.reduce((sum: number, study: { instances: number }) => sum + study.instances, 0)).toBe(images.length - 1);
    expect(studies).toContainEqual({
      studyInstanceUid: '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322',
      studyDate: '2004-01-19',
      modalities: ['CT'],
      instances: 1,
      sizeBytes: 39206,
      lastUploadedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const crCtStudy = studies.find(
      (study: { studyInstanceUid: string }) => study.studyInstanceUid === '1.3.6.1.4.1.5962.1.1.0.0.0.1196527414.5534.0.1',
    );
    expect(crCtStudy).toMatchObject({ modalities: ['CR'], instances: 3, studyDate: '2001-01-01' });
  });

  it('answers the limits and what the patient has used', async () => {
    // Of the two files of one instance, the one sent first was stored.
    const [, second] = images.filter((image) => image.name.startsWith('MR_small'));
    const used = images.filter((image) => image !== second).reduce((sum, image) => sum + image.bytes.length, 0);
    const response = await patient.get('/api/dicom/limits');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      maxFileBytes: app.config.upload.maxFileBytes,
      maxFilesPerRequest: app.config.upload.maxFilesPerRequest,
      maxRequestBytes: app.config.upload.maxRequestBytes,
      quotaBytes: app.config.upload.quotaBytes,
      usedBytes: used,
      reservedBytes: 0,
      reservedUntil: null,
    });
  });
});

describe('POST /api/dicom with hostile or broken files', () => {
  it('refuses a text file renamed .dcm as not DICOM', async () => {
    const response = await postDicoms(patient, app.baseUrl, [{ name: 'scan.dcm', bytes: Buffer.from('x'.repeat(4096)) }]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ stored: 0, duplicates: 0, refused: [{ name: 'scan.dcm', reason: 'not_dicom' }] });
  });

  it('shows a refused file by the name she gave it, in UTF-8', async () => {
    const response = await postDicoms(patient, app.baseUrl, [{ name: 'badania/zażółć "gęślą".dcm', bytes: Buffer.from('x'.repeat(300)) }]);
    expect(response.status).toBe(200);
    // FormData sends a quote as %22 (the HTML standard's form encoding); the name is only shown.
    expect(response.body).toEqual({ stored: 0, duplicates: 0, refused: [{ name: 'badania/zażółć %22gęślą%22.dcm', reason: 'not_dicom' }] });
  });

  it('refuses only the file whose name holds a control character, and stores the rest of its batch', async () => {
    const image = corpusFile('dicomdirtests/98892001/CT5N/2062');
    const bytes = Buffer.from(image.bytes.toString('latin1').replaceAll('1194734704.16302.0.12', '1194734704.16302.8.12'), 'latin1');
    // Raw in the part header (FormData escapes only CR, LF and quotes): the whole body used to be refused.
    const response = await postDicoms(patient, app.baseUrl, [
      { name: 'folder/scan\u0001\u001b[31m.dcm', bytes: Buffer.from(image.bytes) },
      { name: 'folder/tab\u007f.dcm', bytes: Buffer.from('not dicom') },
      { name: 'folder/good.dcm', bytes },
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      stored: 1,
      duplicates: 0,
      refused: [
        { name: 'folder/scan??[31m.dcm', reason: 'bad_name' },
        { name: 'folder/tab?.dcm', reason: 'bad_name' },
      ],
    });
    expect(
      await app.db('dicom_instances').where('sop_instance_uid', '1.3.6.1.4.1.5962.1.1.0.0.0.1194734704.16302.8.12').first(),
    ).toBeDefined();
  });

  it('never uses the sent name in a path: "../" names are stored under a generated key', async () => {
    const image = corpusFile('dicomdirtests/98892001/CT5N/2062');
    // A fresh SOP instance: the same bytes with another UID of the same length.
    const bytes = Buffer.from(image.bytes.toString('latin1').replaceAll('1194734704.16302.0.12', '1194734704.16302.9.12'), 'latin1');
    const names = ['../../../../escaped.dcm', '..\\..\\escaped-too.dcm'];
    const response = await postDicoms(patient, app.baseUrl, [
      { name: names[0]!, bytes },
      { name: names[1]!, bytes: Buffer.from('not dicom at all') },
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ stored: 1, duplicates: 0, refused: [{ name: names[1], reason: 'not_dicom' }] });
    const row = await app.db('dicom_instances').where('sop_instance_uid', '1.3.6.1.4.1.5962.1.1.0.0.0.1194734704.16302.9.12').first();
    expect(row.storage_key).toMatch(/^dicom\/[0-9a-f-]{36}\.dcm$/);
    for (const escaped of ['escaped.dcm', 'escaped-too.dcm']) {
      for (const directory of [app.config.dataDir, path.dirname(app.config.dataDir), storageDir()])
        expect(existsSync(path.join(directory, escaped))).toBe(false);
    }
  });

  it('drops the built disc images of her screenings, so the next one includes the upload', async () => {
    const storage = createFileStorage(app.config.dataDir);
    const isoKey = storage.newKey('iso', '.iso');
    await storage.writeFile(isoKey, Buffer.from('an ISO image built before the upload'));
    await app.db('iso_images').insert({
      screening_id: seed.patient.latestScreeningId,
      status: 'done',
      storage_key: isoKey,
      size_bytes: 36,
      finished_at: new Date(),
    });
    const image = corpusFile('dicomdirtests/98892001/CT5N/2392');
    const bytes = Buffer.from(image.bytes.toString('latin1').replaceAll('1194734704.16302.0.13', '1194734704.16302.8.13'), 'latin1');

    expect((await postDicoms(patient, app.baseUrl, [{ name: '2392', bytes }])).body).toEqual({ stored: 1, duplicates: 0, refused: [] });
    expect(await app.db('iso_images').where('screening_id', seed.patient.latestScreeningId).first('status', 'storage_key')).toEqual({
      status: 'removed',
      storage_key: null,
    });
    expect(existsSync(storage.pathOf(isoKey))).toBe(false);
  });

  it('writes neither file names nor header values to the log', () => {
    const log = app.logs.join('\n');
    expect(log).not.toContain('escaped');
    expect(log).not.toContain('1.3.6.1.4.1.5962');
    expect(log).not.toContain('unhandled error');
  });

  it('refuses compressed pixel data cut short as unreadable', async () => {
    const whole = corpusFile('JPEG2000.dcm').bytes;
    const cut = whole.subarray(0, whole.length - 100);
    const response = await postDicoms(patient, app.baseUrl, [{ name: 'JPEG2000-cut.dcm', bytes: cut }]);
    expect(response.body).toEqual({ stored: 0, duplicates: 0, refused: [{ name: 'JPEG2000-cut.dcm', reason: 'unreadable' }] });
  });

  it('recognises a DICOMDIR by its SOP class whatever it is called', async () => {
    const response = await postDicoms(patient, app.baseUrl, [{ name: 'index.dcm', bytes: corpusFile('dicomdirtests/DICOMDIR').bytes }]);
    expect(response.body).toEqual({ stored: 0, duplicates: 0, refused: [{ name: 'index.dcm', reason: 'dicomdir' }] });
  });

  it('answers UPLOAD_NO_FILES without a file and UPLOAD_BAD_REQUEST for another field or a JSON body', async () => {
    expect((await postDicoms(patient, app.baseUrl, [])).body).toEqual({ code: 'UPLOAD_NO_FILES' });
    const otherField = await postDicoms(patient, app.baseUrl, [corpusFile('CT_small.dcm')], { field: 'file' });
    expect(otherField.status).toBe(400);
    expect(otherField.body).toEqual({ code: 'UPLOAD_BAD_REQUEST' });
    const json = await patient.post('/api/dicom', { dicoms: [] });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ code: 'UPLOAD_BAD_REQUEST' });
    expect(incomingFiles()).toEqual([]);
  });
});

describe('who may upload', () => {
  it('answers a result-portal (guest) session 404 and keeps nothing', async () => {
    const guest = app.client();
    expect((await guest.loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
    const before = await app.db('dicom_instances').count({ n: '*' });
    const response = await postDicoms(guest, app.baseUrl, [corpusFile('CT_small.dcm')]);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND' });
    expect((await guest.get('/api/dicom')).status).toBe(404);
    expect((await guest.get('/api/dicom/limits')).status).toBe(404);
    expect(await app.db('dicom_instances').count({ n: '*' })).toEqual(before);
  });

  it('answers 401 without a session', async () => {
    const anonymous = app.client();
    await anonymous.fetchCsrf();
    expect((await postDicoms(anonymous, app.baseUrl, [corpusFile('CT_small.dcm')])).status).toBe(401);
    expect((await anonymous.get('/api/dicom')).status).toBe(401);
  });

  it('refuses an upload without the CSRF header', async () => {
    const response = await postDicoms(patient, app.baseUrl, [corpusFile('CT_small.dcm')], { withoutCsrf: true });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INVALID_CSRF_TOKEN' });
  });

  it('holds a patient who must change her password at the password change (spec section 6)', async () => {
    const ewa = app.client();
    expect((await ewa.loginPortal(seed.mustChange.login, seed.mustChange.password)).status).toBe(200);
    const response = await postDicoms(ewa, app.baseUrl, [corpusFile('CT_small.dcm')]);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'PASSWORD_CHANGE_REQUIRED' });
  });

  it('keeps patients apart: another patient stores the same image for herself and sees only her study', async () => {
    const personId = await insertPerson(app.db, { firstName: 'Olga', lastName: 'Druga', birthAt: '1972-02-03' });
    await insertAccount(app.db, personId, { email: 'olga.druga@example.com', password: 'Drugie!Haslo1' });
    const olga = app.client();
    expect((await olga.loginPortal('olga.druga@example.com', 'Drugie!Haslo1')).status).toBe(200);
    expect((await postDicoms(olga, app.baseUrl, [corpusFile('CT_small.dcm')])).body).toEqual({ stored: 1, duplicates: 0, refused: [] });
    const studies = (await olga.get('/api/dicom')).body.studies;
    expect(studies.map((study: { studyInstanceUid: string }) => study.studyInstanceUid)).toEqual([
      '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322',
    ]);
  });
});

describe('what a process that died mid-upload left in the incoming area', () => {
  it('is removed once an hour old by a periodic job of the shared queue, restart or not; a request still running keeps its folder', async () => {
    const incoming = path.join(storageDir(), 'incoming');
    const [stale, running] = [path.join(incoming, 'a-dead-request'), path.join(incoming, 'a-running-request')];
    for (const folder of [stale, running]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'part'), 'half an image');
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);

    await removeStaleIncoming(incoming, Date.now());
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(running)).toBe(true);
    rmSync(running, { recursive: true });

    const queues = () => app.db.withSchema(schemaOf(app.db)!).from('queue').pluck('name');
    const deadline = Date.now() + 10_000;
    while (!(await queues()).includes('incoming-upload-sweep') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await queues()).toContain('incoming-upload-sweep');
  });
});
