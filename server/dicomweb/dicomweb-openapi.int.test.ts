import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { providerClient, ProviderClient } from '../../tests/support/provider';
import { insertPerson, insertScreening } from '../../tests/support/seed-minimal';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';

/**
 * The DICOMweb answers as the OpenAPI document describes them: ProviderClient checks each status,
 * media type and DICOM JSON body against the served document, as it does for the JSON calls.
 */
const ACCESSION = 'OAS0001';
let app: TestApp;
let pacs: ProviderClient;
let images: ReturnType<typeof synthesizeScreeningStudy>;

beforeAll(async () => {
  app = await startTestApp();
  const personId = await insertPerson(app.db, { firstName: 'Alicja', lastName: 'Opisowa', birthAt: '1970-03-04' });
  const screeningId = await insertScreening(app.db, app.config, personId, { accessCode: 'Oas1code', examinedAt: '2026-10-01T08:00:00Z' });
  await app.db('screenings').where({ id: screeningId }).update({ accession_number: ACCESSION });
  images = synthesizeScreeningStudy({
    patient: { firstName: 'Alicja', lastName: 'Opisowa', birthAt: '1970-03-04', patientId: 'X' },
    examinedAt: new Date('2026-10-01T08:00:00Z'),
    accessionNumber: ACCESSION,
  });
  pacs = await providerClient(app, ['images:write', 'images:read']);
});
afterAll(() => app?.close());

function multipart(parts: Uint8Array[], boundary = 'oas-boundary'): Buffer {
  return Buffer.concat([
    ...parts.flatMap((bytes) => [
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      Buffer.from(bytes),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}
const STOW_TYPE = 'multipart/related; type="application/dicom"; boundary=oas-boundary';

it('answers STOW-RS, QIDO-RS, WADO-RS and their refusals as the OpenAPI document says', async () => {
  const image = images[0]!;
  expect((await pacs.post('/dicomweb/studies', undefined, { rawBody: multipart([image.bytes]), contentType: STOW_TYPE })).status).toBe(200);
  const mixed = await pacs.post('/dicomweb/studies', undefined, {
    rawBody: multipart([images[1]!.bytes, Buffer.from('not dicom')]),
    contentType: STOW_TYPE,
  });
  expect(mixed.status).toBe(202);
  expect((await pacs.post('/dicomweb/studies', undefined, { rawBody: multipart([Buffer.from('x')]), contentType: STOW_TYPE })).status).toBe(
    409,
  );
  expect((await pacs.post('/dicomweb/studies', undefined, { rawBody: 'x', contentType: 'text/plain' })).status).toBe(415);

  const studies = await pacs.get(`/dicomweb/studies?AccessionNumber=${ACCESSION}`);
  expect(studies.status).toBe(200);
  expect(studies.body).toHaveLength(1);
  const series = await pacs.get(`/dicomweb/studies/${image.studyInstanceUid}/series`);
  expect(series.status).toBe(200);
  const instances = await pacs.get(`/dicomweb/studies/${image.studyInstanceUid}/series/${image.seriesInstanceUid}/instances`);
  expect(instances.body).toHaveLength(2);
  const instancePath = `/dicomweb/studies/${image.studyInstanceUid}/series/${image.seriesInstanceUid}/instances/${image.sopInstanceUid}`;
  const retrieved = await pacs.get(instancePath, { headers: { accept: 'multipart/related; type="application/dicom"' } });
  expect(retrieved.status).toBe(200);
  expect((await pacs.get(`${instancePath}/metadata`)).status).toBe(200);
  expect((await pacs.get('/dicomweb/studies/1.2.3.4')).status).toBe(404);
  expect((await pacs.get('/dicomweb/studies?limit=0')).status).toBe(400);

  const writerOnly = await providerClient(app, ['images:write']);
  expect((await writerOnly.get('/dicomweb/studies')).body).toMatchObject({ code: 'API_KEY_SCOPE' });
});
