import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { createTestApiKey, ProviderClient } from '../../tests/support/provider';
import { textPdf } from '../../tests/support/screening-documents';
import { createFileStorage } from '../lib/storage';
import { filesUnder } from '../upload/upload-test-support';
import { ACCESS_CODE_ALPHABET } from './access-code';
import { createIntakeService } from './service';

/** Document files in the store that no row names: none is ever left behind. */
async function unnamedDocumentFiles(): Promise<string[]> {
  const named = new Set(await app.db('document_contents').whereNotNull('storage_key').pluck('storage_key'));
  return filesUnder(path.join(app.config.dataDir, 'storage', 'document'))
    .map((name) => `document/${name}`)
    .filter((key) => !named.has(key));
}

let app: TestApp;
let provider: ProviderClient;
let n = 0;

const WEIGHTS = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];

/** A valid PESEL of a woman born on a 20th-century day. */
function peselFor(birthAt: string, serial: number): string {
  const [year, month, day] = birthAt.split('-');
  const ten = `${year!.slice(2)}${month}${day}${String(serial).padStart(3, '0')}${(serial % 5) * 2}`;
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(ten[index]), 0);
  return `${ten}${(10 - (sum % 10)) % 10}`;
}

const nextId = (prefix: string) => `${prefix}-${++n}`;

function patientBody(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Halina',
    lastName: 'Przyjęta',
    birthAt: '1971-03-14',
    email: 'halina@example.com',
    phoneNumber: '+48600111222',
    ...overrides,
  };
}

async function countRows(table: string, where: Record<string, unknown>): Promise<number> {
  const [row] = await app.db(table).where(where).count<{ count: string | number }[]>('* as count');
  return Number(row!.count);
}

async function newPatient(overrides: Record<string, unknown> = {}) {
  const externalId = nextId('PAT');
  const answer = await provider.put(`/patients/${externalId}`, patientBody(overrides));
  expect(answer.status).toBe(201);
  return { externalId, birthAt: (overrides.birthAt as string | undefined) ?? '1971-03-14', id: answer.body.id as number };
}

async function newScreening(body: Record<string, unknown> = {}) {
  const patient = await newPatient();
  const externalId = nextId('SCR');
  const answer = await provider.put(`/screenings/${externalId}`, {
    patientExternalId: patient.externalId,
    examinedAt: '2026-11-20T09:30:00+01:00',
    ...body,
  });
  expect(answer.status).toBe(201);
  return { externalId, patient, id: answer.body.id as number, accessCode: answer.body.accessCode as string | undefined };
}

const putPdf = (
  screening: string,
  document: string,
  bytes: Uint8Array | string,
  query = 'kind=description&language=pl',
  client = provider,
) => client.put(`/screenings/${screening}/documents/${document}?${query}`, undefined, { rawBody: bytes, contentType: 'application/pdf' });

beforeAll(async () => {
  app = await startTestApp();
  const { key } = await createTestApiKey(app, ['patients:write', 'screenings:write', 'documents:write']);
  provider = new ProviderClient(app.baseUrl, key);
});
afterAll(() => app?.close());

describe('PUT /patients/:externalId', () => {
  it('creates (201), answers a retry with the same body (200) and keeps one row; GET reads it back', async () => {
    const pesel = peselFor('1971-03-14', 1);
    const body = patientBody({ pesel });
    const created = await provider.put('/patients/RIS-P-1', body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), externalId: 'RIS-P-1', ...body });

    const retried = await provider.put('/patients/RIS-P-1', body);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(created.body);
    expect(await countRows('personal_data', { external_id: 'RIS-P-1' })).toBe(1);

    const read = await provider.get('/patients/RIS-P-1');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('updates: a field left out is cleared', async () => {
    await provider.put('/patients/RIS-P-2', patientBody());
    const updated = await provider.put('/patients/RIS-P-2', { firstName: 'Helena', lastName: 'Nowa', birthAt: '1971-03-14' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ firstName: 'Helena', lastName: 'Nowa', email: null, phoneNumber: null, pesel: null });
  });

  it('refuses a PESEL with a wrong check digit, or of another birth date, and a future birth date', async () => {
    const pesel = peselFor('1971-03-14', 2);
    const wrongDigit = `${pesel.slice(0, 10)}${(Number(pesel[10]) + 1) % 10}`;
    const bad = await provider.put('/patients/RIS-P-3', patientBody({ pesel: wrongDigit }));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'VALIDATION', issues: [{ path: 'pesel', message: 'The PESEL check digit is wrong.' }] });

    const otherDate = await provider.put('/patients/RIS-P-3', patientBody({ pesel: peselFor('1971-03-15', 2) }));
    expect(otherDate.status).toBe(400);
    expect(otherDate.body.issues).toEqual([{ path: 'pesel', message: expect.stringContaining('another date of birth') }]);

    const future = await provider.put('/patients/RIS-P-3', patientBody({ birthAt: '2999-01-01' }));
    expect(future.status).toBe(400);
    expect(future.body.issues[0].path).toBe('birthAt');
    const unreal = await provider.put('/patients/RIS-P-3', patientBody({ birthAt: '1971-02-30' }));
    expect(unreal.status).toBe(400);
    const phone = await provider.put('/patients/RIS-P-3', patientBody({ phoneNumber: '600111222' }));
    expect(phone.body.issues[0].path).toBe('phoneNumber');
    expect(await countRows('personal_data', { external_id: 'RIS-P-3' })).toBe(0);
  });

  it('answers 409 CONFLICT for a PESEL of another patient', async () => {
    const pesel = peselFor('1971-03-14', 3);
    expect((await provider.put('/patients/RIS-P-4', patientBody({ pesel }))).status).toBe(201);
    const clash = await provider.put('/patients/RIS-P-5', patientBody({ pesel }));
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'CONFLICT', field: 'pesel' });
    expect(await countRows('personal_data', { external_id: 'RIS-P-5' })).toBe(0);
  });

  it('answers 404 for an unknown patient, and 403 to a key without patients:write', async () => {
    expect((await provider.get('/patients/NOBODY')).status).toBe(404);
    const { key } = await createTestApiKey(app, ['screenings:write', 'documents:write']);
    const limited = new ProviderClient(app.baseUrl, key);
    const refused = await limited.put('/patients/RIS-P-6', patientBody());
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'API_KEY_SCOPE', requiredScope: 'patients:write' });
    expect(await countRows('personal_data', { external_id: 'RIS-P-6' })).toBe(0);
  });

  it('writes the staff audit with the portal id, not personal data', async () => {
    const { id } = await newPatient();
    // The audit line is written once the answer is sent.
    await expect
      .poll(() =>
        app
          .db('staff_audit')
          .where({ action: 'upsertPatient', object_id: String(id) })
          .first('object_type', 'status'),
      )
      .toEqual({ object_type: 'patient', status: 201 });
    expect(app.logs.join('\n')).not.toContain('Przyjęta');
  });
});

describe('PUT /screenings/:externalId', () => {
  it('creates with a generated code shown once; the patient signs in with it; a retry is 200 without it and one row', async () => {
    const patient = await newPatient({ birthAt: '1965-07-01' });
    const body = {
      patientExternalId: patient.externalId,
      examinedAt: '2026-11-20T09:30:00+01:00',
      absorbedDoseMgy: 2.7,
      facility: 'Mammobus 3',
      accessionNumber: 'ACC-1',
    };
    const created = await provider.put('/screenings/RIS-S-1', body);
    expect(created.status).toBe(201);
    const { accessCode, ...screening } = created.body;
    expect(accessCode).toMatch(new RegExp(`^[${ACCESS_CODE_ALPHABET}]{8}$`));
    expect(screening).toEqual({
      id: expect.any(Number),
      externalId: 'RIS-S-1',
      patientExternalId: patient.externalId,
      examinedAt: '2026-11-20T08:30:00.000Z',
      absorbedDoseMgy: 2.7,
      facility: 'Mammobus 3',
      accessionNumber: 'ACC-1',
      descriptionsStatus: 'in_progress',
      birads: null,
      signedAt: null,
      documents: [],
    });
    const stored = await app.db('screenings').where('external_id', 'RIS-S-1').first('access_code_hash');
    expect(Buffer.from(stored.access_code_hash).toString('utf8')).not.toContain(accessCode);

    const retried = await provider.put('/screenings/RIS-S-1', body);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(screening);
    expect(retried.body.accessCode).toBeUndefined();
    expect(await countRows('screenings', { external_id: 'RIS-S-1' })).toBe(1);

    const read = await provider.get('/screenings/RIS-S-1');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(screening);

    const browser = app.client();
    expect((await browser.loginResult(accessCode, '1965-07-01')).status).toBe(200);
  });

  it('replays the first answer, with the code, for the same Idempotency-Key', async () => {
    const patient = await newPatient();
    const body = { patientExternalId: patient.externalId, examinedAt: '2026-11-21T10:00:00Z' };
    const headers = { 'Idempotency-Key': 'create-RIS-S-2' };
    const first = await provider.put('/screenings/RIS-S-2', body, { headers });
    const again = await provider.put('/screenings/RIS-S-2', body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.accessCode).toBe(first.body.accessCode);
    expect(await countRows('screenings', { external_id: 'RIS-S-2' })).toBe(1);
  });

  it("takes the RIS's own code, keeps it on an update without one and replaces it when one is sent", async () => {
    const patient = await newPatient({ birthAt: '1966-02-03' });
    const body = { patientExternalId: patient.externalId, examinedAt: '2026-11-22T10:00:00Z', accessCode: 'Ris0Code' };
    const created = await provider.put('/screenings/RIS-S-3', body);
    expect(created.status).toBe(201);
    expect(created.body.accessCode).toBeUndefined();

    const { accessCode: _code, ...withoutCode } = body;
    expect((await provider.put('/screenings/RIS-S-3', { ...withoutCode, facility: 'Gdańsk' })).status).toBe(200);
    expect((await app.client().loginResult('Ris0Code', '1966-02-03')).status).toBe(200);

    expect((await provider.put('/screenings/RIS-S-3', { ...withoutCode, accessCode: 'Ris1Code' })).status).toBe(200);
    expect((await app.client().loginResult('Ris0Code', '1966-02-03')).status).not.toBe(200);
    expect((await app.client().loginResult('Ris1Code', '1966-02-03')).status).toBe(200);

    const badCode = await provider.put('/screenings/RIS-S-3', { ...withoutCode, accessCode: 'short' });
    expect(badCode.status).toBe(400);
    expect(badCode.body.issues[0].path).toBe('accessCode');
  });

  it('answers 409 CONFLICT for an accession number or a code of another screening', async () => {
    const one = await newScreening({ accessionNumber: 'ACC-TAKEN', accessCode: 'Taken123' });
    const body = { patientExternalId: one.patient.externalId, examinedAt: '2026-11-23T10:00:00Z' };
    const accession = await provider.put('/screenings/RIS-S-4', { ...body, accessionNumber: 'ACC-TAKEN' });
    expect(accession.status).toBe(409);
    expect(accession.body).toMatchObject({ code: 'CONFLICT', field: 'accessionNumber' });
    const code = await provider.put('/screenings/RIS-S-4', { ...body, accessCode: 'Taken123' });
    expect(code.status).toBe(409);
    expect(code.body).toMatchObject({ code: 'CONFLICT', field: 'accessCode' });
    expect(await countRows('screenings', { external_id: 'RIS-S-4' })).toBe(0);
  });

  it('answers 422 VALIDATION for an unknown patient, 404 for an unknown screening, 403 without screenings:write', async () => {
    const unknown = await provider.put('/screenings/RIS-S-5', { patientExternalId: 'NOBODY', examinedAt: '2026-11-23T10:00:00Z' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'patientExternalId' }] });
    expect((await provider.get('/screenings/RIS-S-5')).status).toBe(404);
    const badDate = await provider.put('/screenings/RIS-S-5', { patientExternalId: 'NOBODY', examinedAt: '20.11.2026' });
    expect(badDate.status).toBe(400);

    const { key } = await createTestApiKey(app, ['patients:write']);
    const refused = await new ProviderClient(app.baseUrl, key).get('/screenings/RIS-S-1');
    expect(refused.status).toBe(403);
    expect(refused.body.requiredScope).toBe('screenings:write');
  });
});

describe('PUT /screenings/:externalId/result', () => {
  it('stores the result on a new Polish description row and shows it to the patient once completed', async () => {
    const screening = await newScreening({ accessCode: 'Result12' });
    const inProgress = await provider.put(`/screenings/${screening.externalId}/result`, {
      descriptionsStatus: 'in_progress',
      birads: 2,
      signedAt: null,
    });
    expect(inProgress.status).toBe(200);
    expect(inProgress.body).toMatchObject({ descriptionsStatus: 'in_progress', birads: 2, signedAt: null });

    const body = { descriptionsStatus: 'completed', birads: -1, signedAt: '2026-11-21T12:00:00+01:00' };
    const completed = await provider.put(`/screenings/${screening.externalId}/result`, body);
    expect(completed.body).toMatchObject({ descriptionsStatus: 'completed', birads: -1, signedAt: '2026-11-21T11:00:00.000Z' });
    const again = await provider.put(`/screenings/${screening.externalId}/result`, body);
    expect(again.body).toEqual(completed.body);

    const rows = await app.db('screening_descriptions').where('screening_id', screening.id).select('language', 'document_id', 'birads');
    expect(rows).toEqual([{ language: 'pl', document_id: null, birads: -1 }]);
    expect(await app.db('screenings').where('id', screening.id).first('descriptions_status')).toEqual({
      descriptions_status: 'desc_all_completed',
    });

    const browser = app.client();
    expect((await browser.loginResult('Result12', screening.patient.birthAt)).status).toBe(200);
    expect((await browser.get('/api/screening/result')).status).toBe(200);
  });

  it('refuses a category that is not BI-RADS, and an unknown screening', async () => {
    const screening = await newScreening();
    const bad = await provider.put(`/screenings/${screening.externalId}/result`, { descriptionsStatus: 'completed', birads: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('birads');
    expect((await provider.put('/screenings/NOPE/result', { descriptionsStatus: 'completed' })).status).toBe(404);
  });
});

describe('PUT /screenings/:externalId/documents/:documentExternalId', () => {
  it('stores a description PDF, links it to its language, and the patient downloads it', async () => {
    const screening = await newScreening({ accessCode: 'Docs1234' });
    const pdf = await textPdf('Opis badania PL');
    const stored = await putPdf(screening.externalId, 'DOC-PL-1', pdf);
    expect(stored.status).toBe(201);
    expect(stored.body).toEqual({
      id: expect.any(String),
      externalId: 'DOC-PL-1',
      kind: 'description',
      language: 'pl',
      name: 'Opis badania.pdf',
      sizeBytes: pdf.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The bytes are a stored file; the database names it.
    const content = await app.db('document_contents').where('document_id', stored.body.id).first('content', 'storage_key');
    expect(content.content).toBeNull();
    expect(readFileSync(createFileStorage(app.config.dataDir).pathOf(content.storage_key)).equals(pdf)).toBe(true);
    const description = await app.db('screening_descriptions').where('screening_id', screening.id).first('language', 'document_id');
    expect(description).toEqual({ language: 'pl', document_id: stored.body.id });

    const same = await putPdf(screening.externalId, 'DOC-PL-1', pdf);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(stored.body);
    expect(await countRows('screening_documents', { screening_id: screening.id })).toBe(1);
    expect(await unnamedDocumentFiles()).toEqual([]);

    const english = await putPdf(
      screening.externalId,
      'DOC-EN-1',
      await textPdf('Screening description EN'),
      'kind=description&language=en',
    );
    expect(english.status).toBe(201);
    expect(english.body.name).toBe('Opis badania EN.pdf');

    const read = await provider.get(`/screenings/${screening.externalId}`);
    expect(read.body.documents.map((document: { externalId: string }) => document.externalId).sort()).toEqual(['DOC-EN-1', 'DOC-PL-1']);

    const browser = app.client();
    expect((await browser.loginResult('Docs1234', screening.patient.birthAt)).status).toBe(200);
    const download = await browser.get(`/api/screening/download-result?documentId=${stored.body.id}`);
    expect(download.status).toBe(200);
    expect(download.text.startsWith('%PDF-')).toBe(true);
  });

  it('replaces the bytes under the same document id', async () => {
    const screening = await newScreening();
    const first = await putPdf(screening.externalId, 'DOC-R-1', await textPdf('first'), 'kind=referral');
    expect(first.body.name).toBe('Skierowanie.pdf');
    const second = await putPdf(screening.externalId, 'DOC-R-1', await textPdf('second version'), 'kind=referral');
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.sha256).not.toBe(first.body.sha256);
    expect(await countRows('screening_documents', { screening_id: screening.id })).toBe(1);
    // The first version's file went with it.
    expect(await unnamedDocumentFiles()).toEqual([]);
  });

  it('refuses a second referral, a document id of another screening, and a translated referral', async () => {
    const screening = await newScreening();
    const other = await newScreening();
    const pdf = await textPdf('Skierowanie');
    expect((await putPdf(screening.externalId, 'DOC-R-2', pdf, 'kind=referral')).status).toBe(201);
    const second = await putPdf(screening.externalId, 'DOC-R-3', pdf, 'kind=referral');
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('CONFLICT');
    const foreign = await putPdf(other.externalId, 'DOC-R-2', pdf, 'kind=referral');
    expect(foreign.status).toBe(409);
    const facilities = await putPdf(screening.externalId, 'DOC-F-1', pdf, 'kind=facilities_list');
    expect(facilities.body.name).toBe('Wykaz placówek.pdf');
    const translated = await putPdf(screening.externalId, 'DOC-R-4', pdf, 'kind=referral&language=en');
    expect(translated.status).toBe(400);
    expect(translated.body.issues[0].path).toBe('language');
    // A refused document leaves no file behind.
    expect(await unnamedDocumentFiles()).toEqual([]);
  });

  it('answers 422 NOT_A_PDF, 415 for another media type, 404 for an unknown screening, 403 without documents:write', async () => {
    const screening = await newScreening();
    expect((await putPdf(screening.externalId, 'DOC-X-1', 'hello, not a PDF')).body).toEqual({ code: 'NOT_A_PDF' });
    const fake = await putPdf(screening.externalId, 'DOC-X-1', '%PDF-1.7\nthis is no PDF at all');
    expect(fake.status).toBe(422);
    expect(fake.body.code).toBe('NOT_A_PDF');
    const json = await provider.put(`/screenings/${screening.externalId}/documents/DOC-X-1?kind=referral`, { pdf: 'no' });
    expect(json.status).toBe(415);
    expect((await putPdf('NOPE', 'DOC-X-1', await textPdf('x'))).status).toBe(404);
    expect(await countRows('screening_documents', { external_id: 'DOC-X-1' })).toBe(0);

    const { key } = await createTestApiKey(app, ['screenings:write']);
    const refused = await putPdf(
      screening.externalId,
      'DOC-X-1',
      await textPdf('x'),
      'kind=referral',
      new ProviderClient(app.baseUrl, key),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.requiredScope).toBe('documents:write');
  });
});

describe('the result-ready port', () => {
  it('is called once when the descriptions become completed, after the commit, whatever the retries', async () => {
    const screening = await newScreening();
    const calls: { screeningId: number; status: string }[] = [];
    const onResultReady = vi.fn(async (screeningId: number) => {
      const row = await app.db('screenings').where('id', screeningId).first('descriptions_status');
      calls.push({ screeningId, status: row.descriptions_status });
    });
    const intake = createIntakeService({
      db: app.db,
      storage: createFileStorage(app.config.dataDir),
      clock: app.clock.now,
      config: app.config,
      onResultReady,
    });

    await intake.setResult(screening.externalId, { descriptionsStatus: 'in_progress', birads: 1 });
    expect(onResultReady).not.toHaveBeenCalled();
    const completed = { descriptionsStatus: 'completed' as const, birads: 1 as const, signedAt: '2026-11-21T12:00:00Z' };
    await Promise.all([intake.setResult(screening.externalId, completed), intake.setResult(screening.externalId, completed)]);
    await intake.setResult(screening.externalId, completed);
    expect(calls).toEqual([{ screeningId: screening.id, status: 'desc_all_completed' }]);
  });

  it('does not fail the call when the notice fails', async () => {
    const screening = await newScreening();
    const intake = createIntakeService({
      db: app.db,
      storage: createFileStorage(app.config.dataDir),
      clock: app.clock.now,
      config: app.config,
      onResultReady: () => Promise.reject(new Error('mail down')),
    });
    await expect(intake.setResult(screening.externalId, { descriptionsStatus: 'completed' })).resolves.toMatchObject({
      descriptionsStatus: 'completed',
    });
  });
});
