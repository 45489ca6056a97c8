import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertScreening } from '../../tests/support/seed-minimal';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type SignIn } from '../../tests/support/app';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { insertDescribedScreeningDocuments, insertDescription, insertDocument } from '../../tests/support/screening-documents';
import { createFileStorage } from '../lib/storage';
import { readDocumentBytes } from './document-files';

let app: TestApp;
let seed: MinimalSeed;
let patientClient: SignIn;
let guestClient: SignIn;
let documents: Awaited<ReturnType<typeof insertDescribedScreeningDocuments>>;
const nextAddress = addressSource('203.0.113');

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  ({ patient: patientClient, guest: guestClient } = seededSignIns(app, seed));
  await app.db('screenings').where('id', seed.patient.latestScreeningId).update({ absorbed_dose_mgy: 2.345 });
  documents = await insertDescribedScreeningDocuments(app.db, seed.patient.latestScreeningId, 2, '2024-03-05T12:00:00Z');
});
afterAll(() => app?.close());

let codeCounter = 0;
/** Another screening of the seeded patient, described with `birads` (or not described at all). */
async function patientScreeningWith(birads: number | null | 'undescribed'): Promise<number> {
  const id = await insertScreening(app.db, app.config, seed.patient.personalDataId, {
    accessCode: `Res${String(codeCounter++).padStart(5, '0')}`,
    examinedAt: '2025-01-15T10:00:00Z',
  });
  if (birads !== 'undescribed') {
    const documentId = await insertDocument(app.db, id, { kind: 'description', language: 'pl', name: 'Opis badania.pdf', text: 'Opis' });
    await insertDescription(app.db, id, { documentId, language: 'pl', birads, signedAt: '2025-01-20T08:00:00Z' });
    await app.db('screenings').where('id', id).update({ descriptions_status: 'desc_all_completed' });
  }
  return id;
}

describe('GET /api/screening/result as a patient', () => {
  it('answers the table, the documents without their bytes and the states of the page, and audits RESULT', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const response = await client.get(`/api/screening/result?id=${seed.patient.latestScreeningId}`, { headers });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      screening: {
        id: seed.patient.latestScreeningId,
        examinedAt: '2024-03-01T09:30:00.000Z',
        firstName: 'Anna',
        lastName: 'Testowa',
        absorbedDoseMgy: 2.345,
        result: 2,
        descriptionsStatus: 'desc_all_completed',
        signedAt: '2024-03-05T12:00:00.000Z',
      },
      documents: [
        { id: documents.descriptionPl, name: 'Opis badania.pdf', type: 'description', language: 'pl', sizeBytes: expect.any(Number) },
        { id: documents.descriptionEn, name: 'Opis badania EN.pdf', type: 'description', language: 'en', sizeBytes: expect.any(Number) },
        { id: documents.descriptionDe, name: 'Opis badania DE.pdf', type: 'description', language: 'de', sizeBytes: expect.any(Number) },
        { id: documents.referral, name: 'Skierowanie.pdf', type: 'referral', language: 'pl', sizeBytes: expect.any(Number) },
      ],
      hasFacilitiesList: true,
      iso: { status: 'empty' },
      survey: { submitted: false },
    });
    const stored = await readDocumentBytes(app.db, createFileStorage(app.config.dataDir), documents.descriptionPl);
    expect(response.body.documents[0].sizeBytes).toBe(stored!.length);
    expect(await auditEntries(app.db, 'RESULT', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: `screening ${seed.patient.latestScreeningId}` },
    ]);
  });

  it.each([1, 2, 3, 4, 5, -1, null])('answers BI-RADS %s of the first description as the result', async (birads) => {
    const id = await patientScreeningWith(birads);
    // A later description with another value must not change the result (spec section 3).
    await insertDescription(app.db, id, { documentId: null, language: 'en', birads: birads === 1 ? 2 : 1, signedAt: null });
    const client = await patientClient();
    const { body } = await client.get(`/api/screening/result?id=${id}`);
    expect(body.screening).toMatchObject({
      result: birads,
      descriptionsStatus: 'desc_all_completed',
      signedAt: '2025-01-20T08:00:00.000Z',
    });
  });

  it('answers a screening still being described: no result, no signing, no documents, no dose', async () => {
    const id = await patientScreeningWith('undescribed');
    const client = await patientClient();
    const { body } = await client.get(`/api/screening/result?id=${id}`);
    expect(body).toEqual({
      screening: {
        id,
        examinedAt: '2025-01-15T10:00:00.000Z',
        firstName: 'Anna',
        lastName: 'Testowa',
        absorbedDoseMgy: null,
        result: null,
        descriptionsStatus: 'desc_in_progress',
        signedAt: null,
      },
      documents: [],
      hasFacilitiesList: false,
      iso: { status: 'empty' },
      survey: { submitted: false },
    });
  });

  it('reads the ISO state: empty without images, no_request without a request, else the image status', async () => {
    const id = await patientScreeningWith(1);
    const client = await patientClient();
    const isoStatus = async () => (await client.get(`/api/screening/result?id=${id}`)).body.iso.status;
    expect(await isoStatus()).toBe('empty');

    await app.db('dicom_instances').insert({
      personal_data_id: seed.patient.personalDataId,
      screening_id: id,
      sop_instance_uid: `1.2.826.0.1.3680043.8.498.${id}`,
      sop_class_uid: '1.2.840.10008.5.1.4.1.1.1.2',
      study_instance_uid: '1.2.3.4',
      series_instance_uid: '1.2.3.4.5',
      storage_key: `dicom/test-${id}.dcm`,
      size_bytes: 4096,
    });
    expect(await isoStatus()).toBe('no_request');

    await app.db('iso_images').insert({ screening_id: id, status: 'new' });
    expect(await isoStatus()).toBe('new');
    for (const status of ['in_progress', 'removed'] as const) {
      await app.db('iso_images').where('screening_id', id).update({ status });
      expect(await isoStatus()).toBe(status);
    }
    await app
      .db('iso_images')
      .where('screening_id', id)
      .update({ status: 'done', storage_key: `iso/${id}.iso`, size_bytes: 1_000_000 });
    expect(await isoStatus()).toBe('done');
    // A failed build offers the generate button again.
    await app.db('iso_images').where('screening_id', id).update({ status: 'failed' });
    expect(await isoStatus()).toBe('no_request');
  });

  it('says the survey was submitted once it was', async () => {
    const id = await patientScreeningWith(1);
    await app.db('screenings').where('id', id).update({ survey_submitted_at: new Date() });
    const client = await patientClient();
    expect((await client.get(`/api/screening/result?id=${id}`)).body.survey).toEqual({ submitted: true });
  });

  it("answers 404 for someone else's screening and an unknown one, auditing RESULT_UNAUTHORIZED for both", async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    for (const id of [seed.guest.screeningId, 999999]) {
      expect(await client.get(`/api/screening/result?id=${id}`, { headers })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
    expect(await auditEntries(app.db, 'RESULT_UNAUTHORIZED', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: `screening ${seed.guest.screeningId}` },
      { user_id: seed.patient.userId, screening_id: null, description: 'screening 999999' },
    ]);
    expect(await auditEntries(app.db, 'RESULT', ip)).toEqual([]);
  });

  it('answers 404 without an id, since a patient may have many screenings', async () => {
    const client = await patientClient();
    expect((await client.get('/api/screening/result')).status).toBe(404);
    expect((await client.get('/api/screening/result?id=abc')).status).toBe(404);
  });
});

describe('GET /api/screening/result as a result-portal guest', () => {
  it('answers her screening with or without its id, in her own log', async () => {
    const { ip, headers } = nextAddress();
    const client = await guestClient(headers);
    for (const path of ['/api/screening/result', `/api/screening/result?id=${seed.guest.screeningId}`]) {
      const response = await client.get(path, { headers });
      expect(response.status).toBe(200);
      expect(response.body.screening).toMatchObject({ id: seed.guest.screeningId, firstName: 'Maria', lastName: 'Gość', result: null });
    }
    expect(await auditEntries(app.db, 'RESULT', ip)).toHaveLength(2);
    expect((await auditEntries(app.db, 'RESULT', ip))[0]).toEqual({
      user_id: null,
      screening_id: seed.guest.screeningId,
      description: `screening ${seed.guest.screeningId}`,
    });
  });

  it('answers 404 for another screening and an unknown one, auditing RESULT_UNAUTHORIZED in her log', async () => {
    const { ip, headers } = nextAddress();
    const client = await guestClient(headers);
    for (const id of [seed.patient.latestScreeningId, 999999]) {
      expect(await client.get(`/api/screening/result?id=${id}`, { headers })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
    expect(await auditEntries(app.db, 'RESULT_UNAUTHORIZED', ip)).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: `screening ${seed.patient.latestScreeningId}` },
      { user_id: null, screening_id: seed.guest.screeningId, description: 'screening 999999' },
    ]);
  });
});

it('answers 401 without a session and 403 to a patient who must change her password', async () => {
  const anonymous = app.client();
  await anonymous.fetchCsrf();
  expect(await anonymous.get('/api/screening/result')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  const mustChange = app.client();
  await mustChange.loginPortal(seed.mustChange.login, seed.mustChange.password);
  expect(await mustChange.get(`/api/screening/result?id=${seed.mustChange.screeningId}`)).toMatchObject({
    status: 403,
    body: { code: 'PASSWORD_CHANGE_REQUIRED' },
  });
});
