import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import dcmjs from 'dcmjs';
import { api } from 'dicomweb-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { DICOM_CORPUS_DIR } from '../../tests/support/dicom-corpus';
import { createTestApiKey } from '../../tests/support/provider';
import { insertAccount, insertPerson, insertScreening } from '../../tests/support/seed-minimal';
import { synthesizeScreeningStudy, type SyntheticImage } from '../dicom/synthetic-mg';
import { createFileStorage } from '../lib/storage';
import { PROVIDER_API_PREFIX } from '../provider/openapi';
import type { ProviderScope } from '../provider/scopes';
import { postDicoms } from '../upload/upload-test-support';
import { RESUMABLE_FOLDER } from '../upload/resumable/layout';

// dicomweb-client speaks XMLHttpRequest, which Node lacks; xhr2 is one for Node (CommonJS, untyped).
const require = createRequire(import.meta.url);
globalThis.XMLHttpRequest ??= require('xhr2') as typeof XMLHttpRequest;

type InstanceUids = { studyInstanceUID: string; seriesInstanceUID: string; sopInstanceUID: string };
/** The part of dicomweb-client the tests call; its generated types mark every option required. */
type DicomwebClient = {
  storeInstances(options: { datasets: ArrayBuffer[] }): Promise<unknown>;
  searchForStudies(options?: { queryParams?: Record<string, string> }): Promise<unknown>;
  searchForSeries(options: { studyInstanceUID: string }): Promise<unknown>;
  searchForInstances(options: { studyInstanceUID: string; seriesInstanceUID: string }): Promise<unknown>;
  retrieveStudy(options: { studyInstanceUID: string }): Promise<unknown>;
  retrieveInstance(options: InstanceUids): Promise<unknown>;
  retrieveInstanceMetadata(options: InstanceUids): Promise<unknown>;
};
type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;
type ClientError = Error & { status: number; response: unknown };

const ACCESSION = 'ACC-0001';
const FAILURE = { outOfResources: 0xa700, notMatchingSopClass: 0xa900, cannotUnderstand: 0xc000 };

let app: TestApp;
let seed: MinimalSeed;
let writer: DicomwebClient;
let reader: DicomwebClient;
let writerKeyId: number;
let person: { id: number; screeningId: number };
let images: SyntheticImage[];

const dicomwebUrl = () => `${app.baseUrl}${PROVIDER_API_PREFIX}/dicomweb`;

async function clientWith(scopes: ProviderScope[]): Promise<{ client: DicomwebClient; id: number; key: string }> {
  const { key, id } = await createTestApiKey(app, scopes);
  const options = { url: dicomwebUrl(), headers: { Authorization: `Bearer ${key}` }, verbose: false };
  return { client: new api.DICOMwebClient(options as never) as unknown as DicomwebClient, id, key };
}

function corpus(name: string): Buffer {
  return readFileSync(path.join(DICOM_CORPUS_DIR, name));
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** A real file of the corpus given another accession number, rewritten by dcmjs; its preamble filled with 'A's. */
function withAccession(name: string, accessionNumber: string): Buffer {
  const file = dcmjs.data.DicomMessage.readFile(arrayBuffer(corpus(name)));
  file.dict['00080050'] = { vr: 'SH', Value: [accessionNumber] };
  const bytes = Buffer.from(file.write());
  bytes.fill(0x41, 0, 128);
  return bytes;
}

/** MR_small.dcm with another Transfer Syntax UID of the same length in its file meta: a false claim. */
function withTransferSyntax(transferSyntax: string, accessionNumber: string): Buffer {
  const bytes = withAccession('MR_small.dcm', accessionNumber);
  const at = bytes.indexOf('1.2.840.10008.1.2.1\0', 0, 'latin1');
  expect(at).toBeGreaterThan(128);
  bytes.write(transferSyntax.padEnd(20, '\0'), at, 'latin1');
  return bytes;
}

async function stow(client: DicomwebClient, datasets: Uint8Array[]): Promise<{ status: number; body: DicomJson }> {
  try {
    const response = await client.storeInstances({ datasets: datasets.map(arrayBuffer) });
    return { status: 200, body: JSON.parse(response as string) };
  } catch (error) {
    const { status, response } = error as ClientError;
    return { status, body: typeof response === 'string' && response ? JSON.parse(response) : {} };
  }
}

/** A STOW-RS request sent by hand, to see the status (dicomweb-client folds 200 and 202 together) and headers. */
async function rawStow(key: string, parts: { bytes: Uint8Array; contentType?: string }[], options: { cut?: boolean } = {}) {
  const boundary = 'test-boundary-0123';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Type: ${part.contentType ?? 'application/dicom'}\r\n\r\n`));
    chunks.push(Buffer.from(part.bytes), Buffer.from('\r\n'));
  }
  if (!options.cut) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const response = await fetch(`${dicomwebUrl()}/studies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}` },
    body: Buffer.concat(chunks),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as DicomJson) : {} };
}

const value = (dataset: DicomJson, tag: string) => dataset[tag]?.Value?.[0];
const items = (dataset: DicomJson, tag: string) => (dataset[tag]?.Value ?? []) as DicomJson[];
const failures = (body: DicomJson) =>
  items(body, '00081198').map((item) => ({ sop: value(item, '00081155'), reason: value(item, '00081197') }));

const storagePath = (key: string) => path.join(app.config.dataDir, 'storage', key);
/** Nothing left behind by STOW-RS; the resumable uploads' own folder lives there too and is not STOW's. */
const incomingEmpty = () => {
  const incoming = path.join(app.config.dataDir, 'storage', 'incoming');
  return !existsSync(incoming) || readdirSync(incoming).filter((name) => name !== RESUMABLE_FOLDER).length === 0;
};

let writerKey: string;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  const id = await insertPerson(app.db, { firstName: 'Ewa', lastName: 'Stowowa', birthAt: '1965-02-03' });
  await app.db('personal_data').where('id', id).update({ external_id: 'RIS-77' });
  const screeningId = await insertScreening(app.db, app.config, id, { accessCode: 'Stow1cde', examinedAt: '2025-06-02T08:00:00Z' });
  await app.db('screenings').where('id', screeningId).update({ accession_number: ACCESSION });
  person = { id, screeningId };
  images = synthesizeScreeningStudy({
    patient: { firstName: 'Ewa', lastName: 'Stowowa', birthAt: '1965-02-03', patientId: 'RIS-77' },
    examinedAt: new Date('2025-06-02T08:00:00Z'),
    accessionNumber: ACCESSION,
  });
  const write = await clientWith(['images:write']);
  writer = write.client;
  writerKeyId = write.id;
  writerKey = write.key;
  reader = (await clientWith(['images:read'])).client;
});

afterAll(() => app?.close());

describe('STOW-RS', () => {
  it('stores the instances of a screening by accession number and answers the referenced ones', async () => {
    // A built disc image of the screening: it must go, so the next one has the new images.
    await createFileStorage(app.config.dataDir).writeFile('iso/stow-test.iso', Buffer.from('old disc'));
    await app.db('iso_images').insert({
      screening_id: person.screeningId,
      status: 'done',
      storage_key: 'iso/stow-test.iso',
      size_bytes: 8,
      finished_at: new Date(),
    });

    const response = await rawStow(
      writerKey,
      images.map((image) => ({ bytes: image.bytes })),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/dicom+json');
    const study = images[0]!.studyInstanceUid;
    expect(value(response.body, '00081190')).toBe(`${dicomwebUrl()}/studies/${study}`);
    expect(response.body['00081198']).toBeUndefined();
    expect(items(response.body, '00081199')).toEqual(
      images.map((image) => ({
        '00081150': { vr: 'UI', Value: [image.sopClassUid] },
        '00081155': { vr: 'UI', Value: [image.sopInstanceUid] },
        '00081190': {
          vr: 'UR',
          Value: [`${dicomwebUrl()}/studies/${study}/series/${image.seriesInstanceUid}/instances/${image.sopInstanceUid}`],
        },
      })),
    );

    const rows = await app.db('dicom_instances').where('personal_data_id', person.id).orderBy('sop_instance_uid');
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row).toMatchObject({
        screening_id: person.screeningId,
        uploaded_by_user_id: null,
        stored_by_api_key_id: writerKeyId,
        modality: 'MG',
      });
      const image = images.find((candidate) => candidate.sopInstanceUid === row.sop_instance_uid)!;
      expect(readFileSync(storagePath(row.storage_key)).equals(Buffer.from(image.bytes))).toBe(true);
    }
    expect(await app.db('iso_images').where('screening_id', person.screeningId).first('status')).toEqual({ status: 'removed' });
    expect(existsSync(storagePath('iso/stow-test.iso'))).toBe(false);
    expect(incomingEmpty()).toBe(true);
    await expect
      .poll(() => app.db('staff_audit').where({ action: 'stowStudies', api_key_id: writerKeyId }).select('object_id', 'status'))
      .toEqual([{ object_id: study, status: 200 }]);
  });

  it('stores a real file with a dirty preamble zeroed, and takes a repeated instance as a success', async () => {
    const ct = withAccession('CT_small.dcm', ACCESSION);
    const response = await stow(writer, [ct, images[0]!.bytes]);
    expect(response.status).toBe(200);
    expect(items(response.body, '00081199').map((item) => value(item, '00081155'))).toEqual([
      '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322',
      images[0]!.sopInstanceUid,
    ]);
    const rows = await app.db('dicom_instances').where('personal_data_id', person.id);
    expect(rows).toHaveLength(5);
    const stored = rows.find((row) => row.modality === 'CT')!;
    expect(stored.screening_id).toBe(person.screeningId);
    const bytes = readFileSync(storagePath(stored.storage_key));
    expect(bytes.subarray(0, 128).every((byte) => byte === 0)).toBe(true);
    expect(bytes.subarray(128).equals(ct.subarray(128))).toBe(true);
  });

  it('takes an image the patient uploaded herself into the screening it was taken at, keeping her file', async () => {
    const personId = await insertPerson(app.db, { firstName: 'Olga', lastName: 'Wlasna', birthAt: '1971-01-02' });
    await insertAccount(app.db, personId, { email: 'olga.wlasna@example.com', password: 'Olga!Haslo1' });
    const screeningId = await insertScreening(app.db, app.config, personId, { accessCode: 'Own1code', examinedAt: '2025-07-01T08:00:00Z' });
    await app.db('screenings').where('id', screeningId).update({ accession_number: 'ACC-OWN' });
    const bytes = withAccession('CT_small.dcm', 'ACC-OWN');
    const patient = app.client();
    await patient.loginPortal('olga.wlasna@example.com', 'Olga!Haslo1');
    expect((await postDicoms(patient, app.baseUrl, [{ name: 'CT.dcm', bytes }])).body).toMatchObject({ stored: 1 });
    const [uploaded] = await app.db('dicom_instances').where({ personal_data_id: personId });
    expect(uploaded.screening_id).toBeNull();

    expect((await stow(writer, [bytes])).status).toBe(200);
    expect(await app.db('dicom_instances').where({ personal_data_id: personId })).toEqual([
      expect.objectContaining({ screening_id: screeningId, stored_by_api_key_id: writerKeyId, storage_key: uploaded.storage_key }),
    ]);
  });

  it('fails each bad instance alone with its reason and stores the good ones (202)', async () => {
    const [good] = synthesizeScreeningStudy({
      patient: { firstName: 'Ewa', lastName: 'Stowowa', birthAt: '1965-02-03', patientId: 'RIS-77' },
      examinedAt: new Date('2025-06-03T08:00:00Z'),
      accessionNumber: ACCESSION,
    });
    const [unknownAccession] = synthesizeScreeningStudy({
      patient: { firstName: 'Ewa', lastName: 'Stowowa', birthAt: '1965-02-03', patientId: 'RIS-77' },
      examinedAt: new Date('2025-06-04T08:00:00Z'),
      accessionNumber: 'NO-SUCH-ONE',
    });
    const mrUid = '1.3.6.1.4.1.5962.1.1.4.1.1.20040826185059.5457';
    const response = await rawStow(writerKey, [
      { bytes: corpus('MR_truncated.dcm') },
      { bytes: corpus('ExplVR_LitEndNoMeta.dcm') },
      { bytes: withTransferSyntax('1.2.840.10008.1.2.2', ACCESSION) }, // big endian claimed, little endian data
      { bytes: withTransferSyntax('1.2.840.10008.1.2.5', ACCESSION) }, // RLE claimed, native pixel data
      { bytes: withAccession('MR_small.dcm', ACCESSION), contentType: 'application/dicom; transfer-syntax=1.2.840.10008.1.2' },
      { bytes: good!.bytes },
      { bytes: unknownAccession!.bytes },
      { bytes: good!.bytes, contentType: 'text/plain' },
      { bytes: corpus('dicomdirtests/TINY_ALPHA/PT000000/ST000000/SE000000/IM00000A') }, // CT Image Storage without pixel data
      { bytes: corpus('dicomdirtests/TINY_ALPHA/DICOMDIR') },
    ]);
    expect(response.status).toBe(202);
    expect(failures(response.body)).toEqual([
      { sop: expect.any(String), reason: FAILURE.cannotUnderstand },
      { sop: undefined, reason: FAILURE.cannotUnderstand },
      // Read as big endian, the data set cannot even name its SOP instance.
      { sop: undefined, reason: FAILURE.cannotUnderstand },
      { sop: mrUid, reason: FAILURE.cannotUnderstand },
      { sop: mrUid, reason: FAILURE.cannotUnderstand },
      { sop: unknownAccession!.sopInstanceUid, reason: FAILURE.cannotUnderstand },
      { sop: undefined, reason: FAILURE.cannotUnderstand },
      { sop: expect.stringMatching(/^[0-9.]+$/), reason: FAILURE.notMatchingSopClass },
      { sop: expect.stringMatching(/^[0-9.]+$/), reason: FAILURE.notMatchingSopClass },
    ]);
    expect(items(response.body, '00081199').map((item) => value(item, '00081155'))).toEqual([good!.sopInstanceUid]);
    expect(await app.db('dicom_instances').where('sop_instance_uid', good!.sopInstanceUid).first('screening_id')).toEqual({
      screening_id: person.screeningId,
    });
    expect(await app.db('dicom_instances').where('sop_instance_uid', mrUid).first()).toBeUndefined();
    expect(incomingEmpty()).toBe(true);
  });

  it('stores the good instances even when the store refuses one of them, failing only that one (processing failure)', async () => {
    const [first, poisoned, last] = synthesizeScreeningStudy({
      patient: { firstName: 'Ewa', lastName: 'Stowowa', birthAt: '1965-02-03', patientId: 'RIS-77' },
      examinedAt: new Date('2025-06-05T08:00:00Z'),
      accessionNumber: ACCESSION,
    });
    // The database refuses one row: the request's instances are stored together, then each alone.
    await app.db.raw(`CREATE FUNCTION refuse_poisoned() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await app.db.raw(`CREATE TRIGGER refuse_poisoned BEFORE INSERT ON dicom_instances FOR EACH ROW
      WHEN (NEW.sop_instance_uid = '${poisoned!.sopInstanceUid}') EXECUTE FUNCTION refuse_poisoned()`);
    try {
      const response = await rawStow(writerKey, [
        { bytes: first!.bytes },
        { bytes: poisoned!.bytes },
        { bytes: last!.bytes },
        { bytes: first!.bytes },
      ]);
      expect(response.status).toBe(202);
      expect(failures(response.body)).toEqual([{ sop: undefined, reason: 0x0110 }]);
      // The same instance twice in one request: both answered as stored, kept once.
      expect(items(response.body, '00081199').map((item) => value(item, '00081155'))).toEqual([
        first!.sopInstanceUid,
        last!.sopInstanceUid,
        first!.sopInstanceUid,
      ]);
      const stored = await app.db('dicom_instances').whereIn(
        'sop_instance_uid',
        [first, poisoned, last].map((image) => image!.sopInstanceUid),
      );
      expect(stored.map((row) => row.sop_instance_uid).sort()).toEqual([first!.sopInstanceUid, last!.sopInstanceUid].sort());
      for (const row of stored) expect(existsSync(storagePath(row.storage_key))).toBe(true);
      expect(incomingEmpty()).toBe(true);
    } finally {
      await app.db.raw('DROP TRIGGER refuse_poisoned ON dicom_instances');
      await app.db.raw('DROP FUNCTION refuse_poisoned()');
    }
  });

  it('answers 409 with the failures when nothing could be stored, as dicomweb-client sees it', async () => {
    const response = await stow(writer, [corpus('MR_truncated.dcm'), corpus('ExplVR_LitEndNoMeta.dcm')]);
    expect(response.status).toBe(409);
    expect(failures(response.body).map((failure) => failure.reason)).toEqual([FAILURE.cannotUnderstand, FAILURE.cannotUnderstand]);
    expect(response.body['00081199']).toBeUndefined();
  });

  it('refuses a cut body (400), another media type (415) and a key without images:write (403)', async () => {
    const cut = await rawStow(writerKey, [{ bytes: images[1]!.bytes }], { cut: true });
    expect(cut.status).toBe(400);
    expect(incomingEmpty()).toBe(true);

    const other = await fetch(`${dicomwebUrl()}/studies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writerKey}`, 'content-type': 'application/dicom' },
      body: Buffer.from(images[1]!.bytes),
    });
    expect(other.status).toBe(415);

    const refused = await stow(reader, [images[1]!.bytes]);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'API_KEY_SCOPE', requiredScope: 'images:write' });
    await expect.poll(() => app.db('staff_audit').where({ action: 'stowStudies', status: 403 }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });
});

describe('QIDO-RS and WADO-RS', () => {
  it('lists a study the patient uploaded herself, and retrieves its bytes as stored', async () => {
    const patient = app.client();
    expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
    const upload = await postDicoms(patient, app.baseUrl, [{ name: 'MR_small.dcm', bytes: corpus('MR_small.dcm') }]);
    expect(upload.body).toMatchObject({ stored: 1 });
    const row = await app.db('dicom_instances').where('personal_data_id', seed.patient.personalDataId).first();

    const studies = (await reader.searchForStudies({ queryParams: { PatientID: `portal-${seed.patient.personalDataId}` } })) as DicomJson[];
    expect(studies).toEqual([
      {
        '00080020': { vr: 'DA', Value: ['20040826'] },
        '00080050': { vr: 'SH' },
        '00080061': { vr: 'CS', Value: ['MR'] },
        '00081190': { vr: 'UR', Value: [`${dicomwebUrl()}/studies/${row.study_instance_uid}`] },
        '00100020': { vr: 'LO', Value: [`portal-${seed.patient.personalDataId}`] },
        '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Testowa^Anna' }] },
        '0020000D': { vr: 'UI', Value: [row.study_instance_uid] },
        '00201206': { vr: 'IS', Value: [1] },
        '00201208': { vr: 'IS', Value: [1] },
      },
    ]);

    const instances = (await reader.searchForInstances({
      studyInstanceUID: row.study_instance_uid,
      seriesInstanceUID: row.series_instance_uid,
    })) as DicomJson[];
    expect(instances.map((instance) => value(instance, '00080018'))).toEqual([row.sop_instance_uid]);
    expect(value(instances[0]!, '00080016')).toBe(row.sop_class_uid);

    const retrieved = (await reader.retrieveInstance({
      studyInstanceUID: row.study_instance_uid,
      seriesInstanceUID: row.series_instance_uid,
      sopInstanceUID: row.sop_instance_uid,
    })) as ArrayBuffer;
    expect(Buffer.from(retrieved).equals(readFileSync(storagePath(row.storage_key)))).toBe(true);

    const metadata = (await reader.retrieveInstanceMetadata({
      studyInstanceUID: row.study_instance_uid,
      seriesInstanceUID: row.series_instance_uid,
      sopInstanceUID: row.sop_instance_uid,
    })) as DicomJson[];
    expect(value(metadata[0]!, '00080018')).toBe(row.sop_instance_uid);
    expect(metadata[0]!['7FE00010']).toBeUndefined();
  });

  it('searches the screening studies by PatientID, accession number and date, and lists series and instances', async () => {
    const study = images[0]!.studyInstanceUid;
    const byPatient = (await reader.searchForStudies({ queryParams: { PatientID: 'RIS-77' } })) as DicomJson[];
    expect(byPatient.map((result) => value(result, '0020000D')).sort()).toContain(study);
    const ours = byPatient.find((result) => value(result, '0020000D') === study)!;
    expect(ours).toMatchObject({
      '00080050': { vr: 'SH', Value: [ACCESSION] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Stowowa^Ewa' }] },
      '00201208': { vr: 'IS', Value: [4] },
    });

    expect(await reader.searchForStudies({ queryParams: { AccessionNumber: ACCESSION, StudyDate: '20250601-20250602' } })).toHaveLength(1);
    expect(await reader.searchForStudies({ queryParams: { StudyDate: '20250101-20250131' } })).toEqual([]);
    expect(await reader.searchForStudies({ queryParams: { StudyInstanceUID: study, limit: '1', offset: '1' } })).toEqual([]);

    const series = (await reader.searchForSeries({ studyInstanceUID: study })) as DicomJson[];
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ '00080060': { vr: 'CS', Value: ['MG'] }, '00201209': { vr: 'IS', Value: [4] } });

    const retrieved = (await reader.retrieveStudy({ studyInstanceUID: study })) as ArrayBuffer[];
    expect(retrieved.map((bytes) => Buffer.from(bytes).length).sort()).toEqual(images.map((image) => image.bytes.length).sort());
  });

  it('answers an unknown study 404, a bad query 400 and refuses a key without images:read', async () => {
    const response = await fetch(`${dicomwebUrl()}/studies/1.2.3.4`, { headers: { authorization: `Bearer ${writerKey}` } });
    expect(response.status).toBe(403);
    const reading = (await createTestApiKey(app, ['images:read'])).key;
    expect((await fetch(`${dicomwebUrl()}/studies/1.2.3.4`, { headers: { authorization: `Bearer ${reading}` } })).status).toBe(404);
    expect((await fetch(`${dicomwebUrl()}/studies/not-a-uid/series`, { headers: { authorization: `Bearer ${reading}` } })).status).toBe(
      404,
    );
    expect((await fetch(`${dicomwebUrl()}/studies?StudyDate=yesterday`, { headers: { authorization: `Bearer ${reading}` } })).status).toBe(
      400,
    );
    expect((await fetch(`${dicomwebUrl()}/studies?limit=0`, { headers: { authorization: `Bearer ${reading}` } })).status).toBe(400);
  });
});
