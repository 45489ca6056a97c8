import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { startOrthanc, type Orthanc } from '../../tests/support/orthanc';
import { createTestApiKey } from '../../tests/support/provider';
import { insertPerson, insertScreening } from '../../tests/support/seed-minimal';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';
import { createFileStorage } from '../lib/storage';
import { PROVIDER_API_PREFIX } from '../provider/openapi';
import { corpusFile, postDicoms } from '../upload/upload-test-support';

/**
 * A real PACS against the portal: Orthanc (Debian's `orthanc` with its `orthanc-dicomweb`
 * plugin, installed by `npm test`) has the portal's provider DICOMweb API as a DICOMweb server.
 * It pushes a screening's study into the portal with STOW-RS, finds a patient's own upload with
 * QIDO-RS and pulls it with WADO-RS, so the upload reaches a radiologist's archive.
 */
const ACCESSION = 'ORTH0001';
let app: TestApp;
let seed: MinimalSeed;
let orthanc: Orthanc;
let screeningId: number;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  const personId = await insertPerson(app.db, { firstName: 'Irena', lastName: 'Pacs', birthAt: '1966-09-09' });
  screeningId = await insertScreening(app.db, app.config, personId, { accessCode: 'Orth4nc1', examinedAt: '2026-11-10T08:00:00Z' });
  await app.db('screenings').where({ id: screeningId }).update({ accession_number: ACCESSION });
  const { key } = await createTestApiKey(app, ['images:write', 'images:read']);
  orthanc = await startOrthanc({ dicomwebUrl: `${app.baseUrl}${PROVIDER_API_PREFIX}/dicomweb/`, apiKey: key });
}, 60_000);
afterAll(async () => {
  await orthanc?.stop();
  await app?.close();
});

describe('Orthanc as the provider PACS', () => {
  it('pushes a screening study into the portal with STOW-RS; the images join the screening', async () => {
    const images = synthesizeScreeningStudy({
      patient: { firstName: 'Irena', lastName: 'Pacs', birthAt: '1966-09-09', patientId: 'RIS-P-5' },
      examinedAt: new Date('2026-11-10T08:00:00Z'),
      accessionNumber: ACCESSION,
    });
    let studyId = '';
    for (const image of images) studyId = (await orthanc.store(image.bytes)).ParentStudy;

    const pushed = await orthanc.rest('POST', '/dicom-web/servers/portal/stow', { Resources: [studyId] });
    expect(pushed.status).toBe(200);

    const rows = await app.db('dicom_instances').where({ screening_id: screeningId }).orderBy('sop_instance_uid');
    expect(rows.map((row) => row.sop_instance_uid)).toEqual(images.map((image) => image.sopInstanceUid).sort());
    // Pushed again (a PACS retrying): nothing new.
    expect((await orthanc.rest('POST', '/dicom-web/servers/portal/stow', { Resources: [studyId] })).status).toBe(200);
    expect(await app.db('dicom_instances').where({ screening_id: screeningId }).count({ n: '*' })).toEqual([{ n: images.length }]);
  });

  it("finds a patient's own upload with QIDO-RS and pulls it into the archive with WADO-RS, bytes unchanged", async () => {
    const patient = app.client();
    await patient.loginPortal(seed.patient.login, seed.patient.password);
    const upload = await postDicoms(patient, app.baseUrl, [corpusFile('CT_small.dcm')]);
    expect(upload.body).toMatchObject({ stored: 1 });
    const stored = await app.db('dicom_instances').where({ uploaded_by_user_id: seed.patient.userId }).first();

    const found = await orthanc.rest('POST', '/dicom-web/servers/portal/get', {
      Uri: '/studies',
      Arguments: { PatientID: `portal-${seed.patient.personalDataId}` },
    });
    expect(found.status).toBe(200);
    const studies = found.body as Record<string, { Value?: unknown[] }>[];
    expect(studies.map((study) => study['0020000D']?.Value?.[0])).toEqual([stored.study_instance_uid]);

    const pulled = await orthanc.rest('POST', '/dicom-web/servers/portal/retrieve', {
      Resources: [{ Study: stored.study_instance_uid }],
    });
    expect(pulled.status).toBe(200);
    const lookup = await fetch(`${orthanc.url}/tools/lookup`, { method: 'POST', body: stored.sop_instance_uid });
    const instanceId = ((await lookup.json()) as { Type: string; ID: string }[]).find((hit) => hit.Type === 'Instance')?.ID;
    expect(instanceId).toBeDefined();
    const file = Buffer.from(await (await fetch(`${orthanc.url}/instances/${instanceId}/file`)).arrayBuffer());
    const kept = readFileSync(createFileStorage(app.config.dataDir).pathOf(stored.storage_key));
    expect(file.equals(kept)).toBe(true);
  });
});
