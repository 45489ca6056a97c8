import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageSetsResponse } from '../../common/types/images';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { insertAccount, insertPerson, insertScreening } from '../../tests/support/seed-minimal';
import { createFileStorage, type LocalFileStorage } from '../lib/storage';
import { corpusFile, postDicoms } from '../upload/upload-test-support';
import { screeningViews, storeInstance, storeScreeningViews, type StoredInstance } from './images-test-support';

let app: TestApp;
let seed: MinimalSeed;
let storage: LocalFileStorage;
let patient: TestClient;
let guest: TestClient;
const nextAddress = addressSource('10.61.0');

const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';
/** The synthetic mammograms' matrix (server/dicom/synthetic-mg.ts). */
const MATRIX = { rows: 320, columns: 256 };
const UNPARSABLE_STUDY = '1.2.826.0.1.3680043.10.543.99';
const CT_STUDY = '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322';

let latest: Record<string, StoredInstance>;
let older: Record<string, StoredInstance>;
let guestImages: Record<string, StoredInstance>;
let othersImage: StoredInstance;
let unparsable: StoredInstance;
let extraLatest: StoredInstance;

/** The marker, a broken meta group and nothing a parser can follow: not an image a viewer can show. */
function unparsableBytes(): Uint8Array {
  const bytes = Buffer.alloc(600, 0xab);
  bytes.fill(0, 0, 128);
  bytes.write('DICM', 128, 'latin1');
  return bytes;
}

const imageUrl = (id: string) => `/api/images/${id}`;

async function list(client: TestClient, headers: Record<string, string> = {}): Promise<ImageSetsResponse> {
  const response = await client.get('/api/images', { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.body;
}

function fetchImage(client: TestClient, id: string, headers: Record<string, string> = {}): Promise<Response> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return fetch(`${app.baseUrl}${imageUrl(id)}`, { headers: { cookie, ...headers } });
}

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  storage = createFileStorage(app.config.dataDir);
  const signIn = seededSignIns(app, seed);
  patient = await signIn.patient();
  guest = await signIn.guest();

  const mine = { personalDataId: seed.patient.personalDataId };
  // Stored out of hanging order, as a modality may send them.
  const [rcc, lcc, rmlo, lmlo] = screeningViews('images-latest', '2024-03-01T09:30:00Z');
  latest = await storeScreeningViews(app.db, storage, { ...mine, screeningId: seed.patient.latestScreeningId }, [lmlo!, rcc!, rmlo!, lcc!]);
  // An image that is none of the four views (a spot compression, say): hung after them.
  extraLatest = await storeInstance(app.db, storage, {
    ...mine,
    screeningId: seed.patient.latestScreeningId,
    bytes: corpusFile('CT_small.dcm').bytes,
    studyInstanceUid: rcc!.studyInstanceUid,
    studyDate: rcc!.studyDate,
  });
  older = await storeScreeningViews(
    app.db,
    storage,
    { ...mine, screeningId: seed.patient.olderScreeningId },
    screeningViews('images-older', '2021-03-01T09:00:00Z').reverse(),
  );
  unparsable = await storeInstance(app.db, storage, {
    ...mine,
    screeningId: null,
    bytes: unparsableBytes(),
    studyInstanceUid: UNPARSABLE_STUDY,
    studyDate: null,
    modality: null,
  });
  guestImages = await storeScreeningViews(
    app.db,
    storage,
    {
      personalDataId: (await app.db('screenings').where('id', seed.guest.screeningId).first()).personal_data_id,
      screeningId: seed.guest.screeningId,
    },
    screeningViews('images-guest', '2024-05-10T08:15:00Z'),
  );
  const otherPerson = await insertPerson(app.db, { firstName: 'Inna', lastName: 'Osoba', birthAt: '1959-09-09' });
  const otherScreening = await insertScreening(app.db, app.config, otherPerson, {
    accessCode: 'Oth3code',
    examinedAt: '2024-02-01T10:00:00Z',
  });
  othersImage = (
    await storeScreeningViews(
      app.db,
      storage,
      { personalDataId: otherPerson, screeningId: otherScreening },
      screeningViews('images-other', '2024-02-01T10:00:00Z'),
    )
  ).RCC!;
});

afterAll(() => app?.close());

describe('GET /api/images for a patient', () => {
  it('answers her screenings and her uploaded studies, newest first, each hung R CC, L CC, R MLO, L MLO with its tags', async () => {
    // Her own upload through the real upload path: a CT study of 2004-01-19.
    const upload = await postDicoms(patient, app.baseUrl, [corpusFile('CT_small.dcm')]);
    expect(upload.body).toMatchObject({ stored: 1 });

    const { ip, headers } = nextAddress();
    const { sets } = await list(patient, headers);
    expect(sets.map((set) => (set.kind === 'screening' ? `screening ${set.screeningId}` : `upload ${set.studyInstanceUid}`))).toEqual([
      // No study date in its rows: it counts from when it was stored, today.
      `upload ${UNPARSABLE_STUDY}`,
      `screening ${seed.patient.latestScreeningId}`,
      `screening ${seed.patient.olderScreeningId}`,
      `upload ${CT_STUDY}`,
    ]);
    const [, newest, previous, ct] = sets;
    expect(newest).toMatchObject({ kind: 'screening', examinedAt: '2024-03-01T09:30:00.000Z' });
    expect(newest!.images.map((image) => image.id)).toEqual([
      latest.RCC!.id,
      latest.LCC!.id,
      latest.RMLO!.id,
      latest.LMLO!.id,
      extraLatest.id,
    ]);
    expect(newest!.images[0]).toEqual({
      id: latest.RCC!.id,
      laterality: 'R',
      viewPosition: 'CC',
      studyDate: '2024-03-01',
      modality: 'MG',
      transferSyntaxUid: EXPLICIT_LITTLE,
      ...MATRIX,
      sizeBytes: latest.RCC!.bytes.length,
    });
    expect(newest!.images.map((image) => `${image.laterality} ${image.viewPosition}`)).toEqual([
      'R CC',
      'L CC',
      'R MLO',
      'L MLO',
      'null null',
    ]);
    expect(newest!.images[4]).toMatchObject({ transferSyntaxUid: '1.2.840.10008.1.2.1', rows: 128, columns: 128 });
    expect(previous!.images.map((image) => image.id)).toEqual([older.RCC!.id, older.LCC!.id, older.RMLO!.id, older.LMLO!.id]);
    expect(ct).toMatchObject({
      kind: 'upload',
      studyDate: '2004-01-19',
      images: [{ modality: 'CT', laterality: null, rows: 128, columns: 128 }],
    });

    // Viewing is reading her screenings: one entry per listing, not one per image.
    expect(await auditEntries(app.db, 'SCREENING', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'images list' },
    ]);
  });

  it('lists a file that cannot be parsed, with null tags, and reads no header twice', async () => {
    const { sets } = await list(patient);
    const upload = sets.find((set) => set.kind === 'upload' && set.studyInstanceUid === UNPARSABLE_STUDY);
    expect(upload).toEqual({
      kind: 'upload',
      studyInstanceUid: UNPARSABLE_STUDY,
      studyDate: null,
      images: [
        {
          id: unparsable.id,
          laterality: null,
          viewPosition: null,
          studyDate: null,
          modality: null,
          transferSyntaxUid: null,
          rows: null,
          columns: null,
          sizeBytes: 600,
        },
      ],
    });
    const unread = await app.db('dicom_instances').whereNull('view_tags_read_at').whereIn('screening_id', [seed.patient.latestScreeningId]);
    expect(unread).toEqual([]);

    // The tags are kept: a file changed behind the listing's back is not read again.
    writeFileSync(storage.pathOf(latest.LCC!.storageKey), unparsableBytes());
    const again = await list(patient);
    const latestAgain = again.sets.find((set) => set.kind === 'screening' && set.screeningId === seed.patient.latestScreeningId);
    expect(latestAgain!.images[1]).toMatchObject({ id: latest.LCC!.id, laterality: 'L', viewPosition: 'CC', ...MATRIX });
    writeFileSync(storage.pathOf(latest.LCC!.storageKey), latest.LCC!.bytes);
  });

  it('answers an empty list to a patient without images', async () => {
    const person = await insertPerson(app.db, { firstName: 'Bez', lastName: 'Obrazów', birthAt: '1980-01-01' });
    await insertAccount(app.db, person, { email: 'bez.obrazow@example.com', password: 'Bez!Obrazow1' });
    const other = app.client();
    expect((await other.loginPortal('bez.obrazow@example.com', 'Bez!Obrazow1')).status).toBe(200);
    expect(await list(other)).toEqual({ sets: [] });
  });
});

describe('GET /api/images for a result-portal session', () => {
  it('answers only its own screening, in hanging order, audited in its own log', async () => {
    const { ip, headers } = nextAddress();
    const { sets } = await list(guest, headers);
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ kind: 'screening', screeningId: seed.guest.screeningId, examinedAt: '2024-05-10T08:15:00.000Z' });
    expect(sets[0]!.images.map((image) => image.id)).toEqual([
      guestImages.RCC!.id,
      guestImages.LCC!.id,
      guestImages.RMLO!.id,
      guestImages.LMLO!.id,
    ]);
    expect(await auditEntries(app.db, 'SCREENING', ip)).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: 'images list' },
    ]);
  });

  it('is refused without a session', async () => {
    expect((await app.client().get('/api/images')).status).toBe(401);
    expect((await fetch(`${app.baseUrl}${imageUrl(latest.RCC!.id)}`)).status).toBe(401);
  });
});

describe('GET /api/images/<id>', () => {
  it('streams her stored file as it is, as application/dicom, never cached', async () => {
    const response = await fetchImage(patient, latest.RMLO!.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/dicom');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-disposition')).toBeNull();
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(readFileSync(storage.pathOf(latest.RMLO!.storageKey)))).toBe(true);
  });

  it('serves a byte range with 206, and an unsatisfiable one with 416', async () => {
    const stored = readFileSync(storage.pathOf(older.LCC!.storageKey));
    const partial = await fetchImage(patient, older.LCC!.id, { range: 'bytes=128-131' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 128-131/${stored.length}`);
    expect(Buffer.from(await partial.arrayBuffer()).toString('latin1')).toBe('DICM');

    const tail = await fetchImage(patient, older.LCC!.id, { range: 'bytes=-1000' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(stored.subarray(stored.length - 1000))).toBe(true);

    const beyond = await fetchImage(patient, older.LCC!.id, { range: `bytes=${stored.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${stored.length}`);
    await beyond.arrayBuffer();
  });

  it("answers 404 for another patient's image, and writes the attempt to the caller's log only", async () => {
    const { ip, headers } = nextAddress();
    const response = await fetchImage(patient, othersImage.id, headers);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
    expect(await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'image' },
    ]);
  });

  it('answers the same 404 for an unknown or malformed id, with nothing logged', async () => {
    const { ip, headers } = nextAddress();
    for (const id of [randomUUID(), 'not-an-id', '1', `${latest.RCC!.id}x`]) {
      const response = await fetchImage(patient, id, headers);
      expect([id, response.status, await response.json()]).toEqual([id, 404, { code: 'NOT_FOUND' }]);
    }
    expect(await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip)).toEqual([]);
  });

  it("lets a result-portal session fetch its screening's images and nothing else of anyone", async () => {
    const own = await fetchImage(guest, guestImages.LMLO!.id);
    expect(own.status).toBe(200);
    expect(Buffer.from(await own.arrayBuffer()).equals(Buffer.from(guestImages.LMLO!.bytes))).toBe(true);
    for (const id of [latest.RCC!.id, unparsable.id, othersImage.id]) {
      const response = await fetchImage(guest, id);
      expect([id, response.status]).toEqual([id, 404]);
      await response.arrayBuffer();
    }
  });

  it('answers 404 for a patient asking for the result-portal screening', async () => {
    const response = await fetchImage(patient, guestImages.RCC!.id);
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});
