import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfText } from '../../tests/support/read-pdf-text';
import {
  seedMinimal,
  seededSignIns,
  startTestApp,
  type MinimalSeed,
  type TestApp,
  type TestClient,
  type TestResponse,
  type SignIn,
} from '../../tests/support/app';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { insertDescribedScreeningDocuments, insertDocument } from '../../tests/support/screening-documents';

let app: TestApp;
let seed: MinimalSeed;
let patientClient: SignIn;
let guestClient: SignIn;
let patientDocuments: Awaited<ReturnType<typeof insertDescribedScreeningDocuments>>;
let guestDocuments: Awaited<ReturnType<typeof insertDescribedScreeningDocuments>>;
const nextAddress = addressSource('198.51.100');
const UNKNOWN_DOCUMENT = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  ({ patient: patientClient, guest: guestClient } = seededSignIns(app, seed));
  patientDocuments = await insertDescribedScreeningDocuments(app.db, seed.patient.latestScreeningId, 1, '2024-03-05T12:00:00Z');
  guestDocuments = await insertDescribedScreeningDocuments(app.db, seed.guest.screeningId, 1, '2024-05-12T12:00:00Z');
});
afterAll(() => app?.close());

/** The bytes of a PDF answer: the test client reads bodies as text, so fetch it again raw. */
async function pdfText(client: TestClient, path: string): Promise<string> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${app.baseUrl}${path}`, { headers: { cookie } });
  return readPdfText(new Uint8Array(await response.arrayBuffer()));
}

function expectPdfDownload(response: TestResponse, fileName: string): void {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`);
}

describe('GET /api/screening/download-result', () => {
  it("answers each description with a name in the user's language and audits RESULT", async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const base = `/api/screening/download-result?screeningId=${seed.patient.latestScreeningId}`;
    const cases = [
      [patientDocuments.descriptionEn, 'en', 'screening-description-2024-03-01-EN.pdf', 'Screening description EN'],
      [patientDocuments.descriptionEn, 'pl', 'opis-badania-2024-03-01-EN.pdf', 'Screening description EN'],
      [patientDocuments.descriptionPl, undefined, 'opis-badania-2024-03-01-PL.pdf', 'Opis badania PL'],
      [patientDocuments.descriptionDe, 'en', 'screening-description-2024-03-01-DE.pdf', 'Befund DE'],
    ] as const;
    for (const [documentId, lang, fileName, text] of cases) {
      const path = `${base}&documentId=${documentId}${lang ? `&lang=${lang}` : ''}`;
      expectPdfDownload(await client.get(path, { headers }), fileName);
      expect(await pdfText(client, path)).toBe(text);
    }
    const entries = await auditEntries(app.db, 'RESULT', ip);
    expect(entries[0]).toEqual({
      user_id: seed.patient.userId,
      screening_id: null,
      description: `description ${patientDocuments.descriptionEn}`,
    });
  });

  it('answers the referral by its document id, audited as REFFERENCE, also without the screening id', async () => {
    const { ip, headers } = nextAddress();
    const client = await guestClient(headers);
    const path = `/api/screening/download-result?documentId=${guestDocuments.referral}&lang=en`;
    expectPdfDownload(await client.get(path, { headers }), 'referral-2024-05-10.pdf');
    expect(await pdfText(client, path)).toBe('Skierowanie na badanie');
    expect(await auditEntries(app.db, 'REFFERENCE', ip)).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: `referral ${guestDocuments.referral}` },
    ]);
  });

  it('refuses alike a foreign document, an unknown one, one named with the wrong screening, and the facilities list', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const attempts = [
      `documentId=${guestDocuments.descriptionPl}`,
      `documentId=${UNKNOWN_DOCUMENT}`,
      `documentId=${patientDocuments.descriptionPl}&screeningId=${seed.patient.olderScreeningId}`,
      `documentId=${patientDocuments.facilitiesList}`,
    ];
    for (const query of attempts) {
      expect(await client.get(`/api/screening/download-result?${query}`, { headers })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    expect(await auditEntries(app.db, 'RESULT_UNAUTHORIZED', ip)).toEqual(
      [guestDocuments.descriptionPl, UNKNOWN_DOCUMENT, patientDocuments.descriptionPl, patientDocuments.facilitiesList].map((id) => ({
        user_id: seed.patient.userId,
        screening_id: null,
        description: `document ${id}`,
      })),
    );
    // Someone else's referral is refused as a referral.
    const guest = await guestClient(headers);
    expect((await guest.get(`/api/screening/download-result?documentId=${patientDocuments.referral}`, { headers })).status).toBe(404);
    expect(await auditEntries(app.db, 'REFFERENCE_UNAUTHORIZED', ip)).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: `document ${patientDocuments.referral}` },
    ]);
    expect(await auditEntries(app.db, 'RESULT', ip)).toEqual([]);
  });

  it('answers 404 for a document id that cannot be one, and 400 for an unknown language', async () => {
    const client = await patientClient();
    expect((await client.get('/api/screening/download-result?documentId=nope')).status).toBe(404);
    expect((await client.get(`/api/screening/download-result?documentId=${patientDocuments.descriptionPl}&lang=fr`)).status).toBe(400);
  });
});

describe('GET /api/screening/referral and /download-wykaz', () => {
  it('answer the referral and the facilities list of her screening, named in her language, audited as REFFERENCE', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const id = seed.patient.latestScreeningId;
    expectPdfDownload(await client.get(`/api/screening/referral?id=${id}`, { headers }), 'skierowanie-2024-03-01.pdf');
    expect(await pdfText(client, `/api/screening/referral?id=${id}&lang=en`)).toBe('Skierowanie na badanie');
    expectPdfDownload(
      await client.get(`/api/screening/download-wykaz?screeningId=${id}&lang=en`, { headers }),
      'facilities-list-2024-03-01.pdf',
    );
    expectPdfDownload(
      await client.get(`/api/screening/download-wykaz?screeningId=${id}&lang=pl`, { headers }),
      'wykaz-placowek-2024-03-01.pdf',
    );
    expect(await pdfText(client, `/api/screening/download-wykaz?screeningId=${id}`)).toBe('Wykaz placowek');
    expect(await auditEntries(app.db, 'REFFERENCE', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: `referral ${patientDocuments.referral}` },
      { user_id: seed.patient.userId, screening_id: null, description: `facilities_list ${patientDocuments.facilitiesList}` },
      { user_id: seed.patient.userId, screening_id: null, description: `facilities_list ${patientDocuments.facilitiesList}` },
    ]);
  });

  it('answer a guest her own files without an id', async () => {
    const client = await guestClient();
    expectPdfDownload(await client.get('/api/screening/referral'), 'skierowanie-2024-05-10.pdf');
    expectPdfDownload(await client.get('/api/screening/download-wykaz?lang=en'), 'facilities-list-2024-05-10.pdf');
  });

  it('answer 404 without auditing a refusal when her screening has no referral', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    expect((await client.get(`/api/screening/referral?id=${seed.patient.olderScreeningId}`, { headers })).status).toBe(404);
    expect((await client.get(`/api/screening/download-wykaz?screeningId=${seed.patient.olderScreeningId}`, { headers })).status).toBe(404);
    expect(await auditEntries(app.db, 'REFFERENCE_UNAUTHORIZED', ip)).toEqual([]);
  });

  for (const [label, path] of [
    ['referral', (id: number) => `/api/screening/referral?id=${id}`],
    ['download-wykaz', (id: number) => `/api/screening/download-wykaz?screeningId=${id}`],
  ] as const) {
    it(`${label}: 404 and REFFERENCE_UNAUTHORIZED for foreign and unknown screenings, as patient and as guest`, async () => {
      const { ip, headers } = nextAddress();
      const patient = await patientClient(headers);
      const guest = await guestClient(headers);
      for (const [client, id] of [
        [patient, seed.guest.screeningId],
        [patient, 999999],
        [guest, seed.patient.latestScreeningId],
        [guest, 999999],
      ] as const) {
        expect(await client.get(path(id), { headers })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      }
      expect(await auditEntries(app.db, 'REFFERENCE_UNAUTHORIZED', ip)).toEqual([
        { user_id: seed.patient.userId, screening_id: null, description: `screening ${seed.guest.screeningId}` },
        { user_id: seed.patient.userId, screening_id: null, description: 'screening 999999' },
        { user_id: null, screening_id: seed.guest.screeningId, description: `screening ${seed.patient.latestScreeningId}` },
        { user_id: null, screening_id: seed.guest.screeningId, description: 'screening 999999' },
      ]);
    });
  }
});

describe('GET /api/screening/{id}/referral/exists', () => {
  it('says whether her screening has a referral', async () => {
    const client = await patientClient();
    expect((await client.get(`/api/screening/${seed.patient.latestScreeningId}/referral/exists`)).body).toEqual({ exists: true });
    expect((await client.get(`/api/screening/${seed.patient.olderScreeningId}/referral/exists`)).body).toEqual({ exists: false });
    const guest = await guestClient();
    expect((await guest.get(`/api/screening/${seed.guest.screeningId}/referral/exists`)).body).toEqual({ exists: true });
  });

  it('answers 404 and REFFERENCE_UNAUTHORIZED for foreign and unknown screenings, as patient and as guest', async () => {
    const { ip, headers } = nextAddress();
    const patient = await patientClient(headers);
    const guest = await guestClient(headers);
    for (const [client, id] of [
      [patient, seed.guest.screeningId],
      [patient, 999999],
      [guest, seed.patient.latestScreeningId],
      [guest, 999999],
    ] as const) {
      expect(await client.get(`/api/screening/${id}/referral/exists`, { headers })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    expect(await auditEntries(app.db, 'REFFERENCE_UNAUTHORIZED', ip)).toHaveLength(4);
    expect((await patient.get('/api/screening/abc/referral/exists')).status).toBe(404);
  });
});

describe('guest ownership of documents', () => {
  it('refuses a guest a foreign, an unknown or a wrongly placed document and audits it in her log', async () => {
    const { ip, headers } = nextAddress();
    const guest = await guestClient(headers);
    const stray = await insertDocument(app.db, seed.patient.olderScreeningId, {
      kind: 'description',
      language: 'pl',
      name: 'Opis badania.pdf',
      text: 'x',
    });
    const attempts = [
      `documentId=${stray}&screeningId=${seed.guest.screeningId}`,
      `documentId=${UNKNOWN_DOCUMENT}`,
      `documentId=${guestDocuments.descriptionPl}&screeningId=${seed.patient.latestScreeningId}`,
    ];
    for (const query of attempts) {
      expect(await guest.get(`/api/screening/download-result?${query}`, { headers })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    }
    expect(await auditEntries(app.db, 'RESULT_UNAUTHORIZED', ip)).toEqual(
      [stray, UNKNOWN_DOCUMENT, guestDocuments.descriptionPl].map((id) => ({
        user_id: null,
        screening_id: seed.guest.screeningId,
        description: `document ${id}`,
      })),
    );
  });
});

it('answers 401 to every document call without a session', async () => {
  const client = app.client();
  await client.fetchCsrf();
  for (const path of [
    `/api/screening/download-result?documentId=${patientDocuments.descriptionPl}`,
    '/api/screening/download-wykaz?screeningId=1',
    '/api/screening/referral?id=1',
    '/api/screening/1/referral/exists',
  ]) {
    expect(await client.get(path)).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  }
});
