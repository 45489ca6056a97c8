import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferralListItem, ScreeningListItem } from '../../common/types/screenings';
import type { Db } from '../db';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { insertAccount, insertPerson, insertScreening } from '../../tests/support/seed-minimal';
import { findReferrals, findScreenings } from './list-repo';
import { insertDescribedScreeningDocuments, insertDescription, insertDocument } from '../../tests/support/screening-documents';

let app: TestApp;
let seed: MinimalSeed;
const nextAddress = addressSource('198.18.0');

/**
 * The patient of seedMinimal (older: 2021, nothing described; latest: 2024, BI-RADS 1 signed, with
 * referral and facilities list) plus three screenings on day boundaries in Warsaw:
 * - winter: 2023-01-05 23:30 CET (22:30 UTC), BI-RADS 2 signed, referral;
 * - lateEvening: 2023-07-05 23:30 CEST (21:30 UTC), BI-RADS 4 signed, referral, two orders;
 * - pastMidnight: 2023-07-06 00:10 CEST (2023-07-05 22:10 UTC), BI-RADS 0 (-1) not yet signed, referral.
 * And Ewa, a second patient with an account, one screening with a referral and an order.
 */
const ids = { older: 0, latest: 0, winter: 0, lateEvening: 0, pastMidnight: 0, ewas: 0 };
let latestDocuments: Awaited<ReturnType<typeof insertDescribedScreeningDocuments>>;
const documents = { winterReferral: '', lateReferral: '', lateDescription: '', pastMidnightReferral: '', ewasReferral: '' };
const orders = { copyDone: 0, translationOpen: 0, ewas: 0 };
const payments = { copyCanceled: 0, copyCompleted: 0 };
const ewa = { email: 'ewa.druga@example.com', password: 'Drugie!Haslo1' };

async function insertProduct(db: Db, code: string, kind: string, priceGrosze: number): Promise<number> {
  const [row] = await db('products')
    .insert({ code, kind, name_pl: code, name_en: code, description_pl: code, description_en: code, price_grosze: priceGrosze })
    .returning('id');
  return row.id;
}

async function insertOrder(
  db: Db,
  order: { userId: number; screeningId: number; productId: number; done: boolean; shipmentStatus?: string },
): Promise<number> {
  const [row] = await db('orders')
    .insert({
      user_id: order.userId,
      screening_id: order.screeningId,
      product_id: order.productId,
      price_grosze: 2100,
      done: order.done,
      shipment_status: order.shipmentStatus ?? 'not_applicable',
    })
    .returning('id');
  return row.id;
}

async function insertPayment(db: Db, orderId: number, status: string, providerOrderId: string): Promise<number> {
  const [row] = await db('payments')
    .insert({ order_id: orderId, provider: 'test', provider_order_id: providerOrderId, status, amount_grosze: 2100 })
    .returning('id');
  return row.id;
}

async function describedScreening(
  db: Db,
  personId: number,
  accessCode: string,
  examinedAt: string,
  birads: number,
  signedAt: string | null,
) {
  const screeningId = await insertScreening(db, app.config, personId, { accessCode, examinedAt });
  const description = await insertDocument(db, screeningId, {
    kind: 'description',
    language: 'pl',
    name: 'Opis badania.pdf',
    text: 'Opis',
  });
  await insertDescription(db, screeningId, { documentId: description, language: 'pl', birads, signedAt });
  const referral = await insertDocument(db, screeningId, {
    kind: 'referral',
    language: 'pl',
    name: 'Skierowanie.pdf',
    text: 'Skierowanie',
  });
  return { screeningId, description, referral };
}

beforeAll(async () => {
  app = await startTestApp();
  const { db } = app;
  seed = await seedMinimal(db, app.config);
  const patientPerson = seed.patient.personalDataId;
  ids.older = seed.patient.olderScreeningId;
  ids.latest = seed.patient.latestScreeningId;
  latestDocuments = await insertDescribedScreeningDocuments(db, ids.latest, 1, '2024-03-04T10:00:00Z');

  const winter = await describedScreening(db, patientPerson, 'Win4code', '2023-01-05T22:30:00Z', 2, '2023-01-09T10:00:00Z');
  const late = await describedScreening(db, patientPerson, 'Lat5code', '2023-07-05T21:30:00Z', 4, '2023-07-07T10:00:00Z');
  const pastMidnight = await describedScreening(db, patientPerson, 'Mid6code', '2023-07-05T22:10:00Z', -1, null);
  Object.assign(ids, { winter: winter.screeningId, lateEvening: late.screeningId, pastMidnight: pastMidnight.screeningId });
  await db('screenings').where('id', late.screeningId).update({ absorbed_dose_mgy: 4.12, descriptions_status: 'desc_all_completed' });
  Object.assign(documents, {
    winterReferral: winter.referral,
    lateReferral: late.referral,
    lateDescription: late.description,
    pastMidnightReferral: pastMidnight.referral,
  });

  const ewaPerson = await insertPerson(db, { firstName: 'Ewa', lastName: 'Druga', birthAt: '1980-02-03' });
  const ewaUserId = await insertAccount(db, ewaPerson, ewa);
  const ewas = await describedScreening(db, ewaPerson, 'Ewa7code', '2023-07-05T21:45:00Z', 1, '2023-07-06T09:00:00Z');
  ids.ewas = ewas.screeningId;
  documents.ewasReferral = ewas.referral;

  const copy = await insertProduct(db, 'copy-of-images', 'copy', 2100);
  const translation = await insertProduct(db, 'translation-en', 'translation_en', 8900);
  orders.copyDone = await insertOrder(db, {
    userId: seed.patient.userId,
    screeningId: ids.lateEvening,
    productId: copy,
    done: true,
    shipmentStatus: 'sent',
  });
  payments.copyCanceled = await insertPayment(db, orders.copyDone, 'CANCELED', 'p-1');
  payments.copyCompleted = await insertPayment(db, orders.copyDone, 'COMPLETED', 'p-2');
  orders.translationOpen = await insertOrder(db, {
    userId: seed.patient.userId,
    screeningId: ids.lateEvening,
    productId: translation,
    done: false,
  });
  orders.ewas = await insertOrder(db, { userId: ewaUserId, screeningId: ids.ewas, productId: copy, done: false });
  await insertPayment(db, orders.ewas, 'PENDING', 'p-3');
});
afterAll(() => app?.close());

async function signedIn(login: string, password: string, headers: Record<string, string> = {}): Promise<TestClient> {
  const client = app.client();
  expect((await client.loginPortal(login, password, headers)).status).toBe(200);
  return client;
}
const patientClient = (headers?: Record<string, string>) => signedIn(seed.patient.login, seed.patient.password, headers);

async function guestClient(headers: Record<string, string> = {}): Promise<TestClient> {
  const client = app.client();
  await client.loginResult(seed.guest.accessCode, seed.guest.birthAt, headers);
  return client;
}

async function listedIds(client: TestClient, query = ''): Promise<number[]> {
  const response = await client.get(`/api/screenings${query}`);
  expect(response.status).toBe(200);
  return response.body.items.map((item: ScreeningListItem) => item.screening.id);
}

async function referralIds(client: TestClient, query = ''): Promise<number[]> {
  const response = await client.get(`/api/screenings/referrals${query}`);
  expect(response.status).toBe(200);
  return response.body.items.map((item: ReferralListItem) => item.screeningId);
}

describe('GET /api/screenings', () => {
  it('answers all of her screenings, newest first, with results, documents and orders, audited once as SCREENING', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const response = await client.get('/api/screenings', { headers });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const items: ScreeningListItem[] = response.body.items;
    expect(items.map((item) => item.screening.id)).toEqual([ids.latest, ids.pastMidnight, ids.lateEvening, ids.winter, ids.older]);

    const [latest, pastMidnight, lateEvening, , older] = items;
    expect(latest).toEqual({
      screening: {
        id: ids.latest,
        createdAt: '2024-03-01T09:30:00.000Z',
        screeningDescriptionsStatus: 'desc_all_completed',
        absorbedDose: null,
        result: 1,
        signed: true,
        signedAt: '2024-03-04T10:00:00.000Z',
      },
      documents: [
        { id: latestDocuments.descriptionPl, name: 'Opis badania.pdf', type: 'description', language: 'pl', sizeBytes: expect.any(Number) },
        {
          id: latestDocuments.descriptionEn,
          name: 'Opis badania EN.pdf',
          type: 'description',
          language: 'en',
          sizeBytes: expect.any(Number),
        },
        {
          id: latestDocuments.descriptionDe,
          name: 'Opis badania DE.pdf',
          type: 'description',
          language: 'de',
          sizeBytes: expect.any(Number),
        },
        { id: latestDocuments.referral, name: 'Skierowanie.pdf', type: 'referral', language: 'pl', sizeBytes: expect.any(Number) },
      ],
      hasFacilitiesList: true,
      orders: [],
    });
    expect(latest!.documents[0]!.sizeBytes).toBeGreaterThan(100);
    expect(pastMidnight!.screening).toMatchObject({ createdAt: '2023-07-05T22:10:00.000Z', result: -1, signed: false, signedAt: null });
    expect(older).toMatchObject({
      screening: { screeningDescriptionsStatus: 'desc_in_progress', result: null, signed: false, signedAt: null },
      documents: [],
      hasFacilitiesList: false,
      orders: [],
    });
    // The latest payment of each order, or none; orders by id.
    expect(lateEvening!.orders).toEqual([
      {
        id: orders.copyDone,
        done: true,
        payment: { id: payments.copyCompleted, status: 'COMPLETED' },
        shipmentStatus: 'sent',
        productCode: 'copy-of-images',
      },
      { id: orders.translationOpen, done: false, payment: null, shipmentStatus: 'not_applicable', productCode: 'translation-en' },
    ]);
    expect(lateEvening!.screening).toMatchObject({
      absorbedDose: 4.12,
      screeningDescriptionsStatus: 'desc_all_completed',
      result: 4,
      signed: true,
    });
    expect(lateEvening!.documents.map((document) => document.id)).toEqual([documents.lateDescription, documents.lateReferral]);

    expect(await auditEntries(app.db, 'SCREENING', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'screenings list' },
    ]);
  });

  it("never shows another patient's screenings, and shows her only her own", async () => {
    const anna = await patientClient();
    expect(await listedIds(anna)).not.toContain(ids.ewas);
    expect(await listedIds(anna, `?screeningId=${ids.ewas}`)).toEqual([]);

    const ewaClient = await signedIn(ewa.email, ewa.password);
    const response = await ewaClient.get('/api/screenings');
    expect(response.body.items).toHaveLength(1);
    expect(response.body.items[0]).toMatchObject({
      screening: { id: ids.ewas, result: 1, signed: true },
      orders: [{ id: orders.ewas, done: false, payment: { status: 'PENDING' }, productCode: 'copy-of-images' }],
    });
    expect(await listedIds(ewaClient, `?screeningId=${ids.latest}`)).toEqual([]);
  });

  it('filters by signing, result and id, alone and combined', async () => {
    const client = await patientClient();
    const cases: [string, number[]][] = [
      ['?signed=true', [ids.latest, ids.lateEvening, ids.winter]],
      ['?signed=false', [ids.pastMidnight, ids.older]],
      ['?result=1', [ids.latest]],
      ['?result=2', [ids.winter]],
      ['?result=4', [ids.lateEvening]],
      ['?result=-1', [ids.pastMidnight]],
      ['?result=none', [ids.older]],
      ['?result=5', []],
      [`?screeningId=${ids.winter}`, [ids.winter]],
      ['?screeningId=999999', []],
      ['?signed=true&from=2023-01-01&to=2023-12-31', [ids.lateEvening, ids.winter]],
      [`?signed=false&result=-1&screeningId=${ids.pastMidnight}`, [ids.pastMidnight]],
      [`?signed=true&screeningId=${ids.pastMidnight}`, []],
      // Empty parameters are filters not in use, as an untouched form sends them.
      ['?from=&to=&signed=&result=&screeningId=&timeZone=', [ids.latest, ids.pastMidnight, ids.lateEvening, ids.winter, ids.older]],
    ];
    for (const [query, expected] of cases) expect(await listedIds(client, query), query).toEqual(expected);
  });

  it('takes from and to as whole days in the given time zone (Warsaw by default), both inclusive', async () => {
    const client = await patientClient();
    const cases: [string, number[]][] = [
      // 23:30 in Warsaw on 5 July belongs to the 5th; 00:10 on the 6th (still the 5th in UTC) does not.
      ['?from=2023-07-05&to=2023-07-05', [ids.lateEvening]],
      ['?from=2023-07-06&to=2023-07-06', [ids.pastMidnight]],
      ['?to=2023-07-05', [ids.lateEvening, ids.winter, ids.older]],
      ['?from=2023-07-06', [ids.latest, ids.pastMidnight]],
      // Winter time: 23:30 CET is 22:30 UTC.
      ['?from=2023-01-05&to=2023-01-05', [ids.winter]],
      ['?from=2023-01-06&to=2023-07-04', []],
      ['?from=2023-07-05&to=2023-07-05&timeZone=UTC', [ids.pastMidnight, ids.lateEvening]],
      ['?from=2023-07-06&to=2023-07-06&timeZone=Asia/Tokyo', [ids.pastMidnight, ids.lateEvening]],
      ['?from=2023-01-05&to=2023-01-05&timeZone=America/New_York', [ids.winter]],
    ];
    for (const [query, expected] of cases) expect(await listedIds(client, query), query).toEqual(expected);
  });

  it('answers 400 VALIDATION for filter values it cannot use, and audits nothing', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const cases: [string, string, string][] = [
      ['from=2023-02-30', 'from', 'validation.audit.date.invalid'],
      ['to=05.07.2023', 'to', 'validation.audit.date.invalid'],
      ['from=2023-07-06&to=2023-07-05', 'to', 'validation.audit.range.invalid'],
      ['timeZone=Mars/Olympus_Mons', 'timeZone', 'errors.generic'],
      ['timeZone=%2B01:00', 'timeZone', 'errors.generic'],
      ['timeZone=Europe/Warsaw%27--', 'timeZone', 'errors.generic'],
      ['signed=yes', 'signed', 'errors.generic'],
      ['signed=true&signed=false', 'signed', 'errors.generic'],
      ['result=0', 'result', 'errors.generic'],
      ['result=6', 'result', 'errors.generic'],
      ['screeningId=abc', 'screeningId', 'errors.generic'],
      ['screeningId=0', 'screeningId', 'errors.generic'],
      ['screeningId=1.5', 'screeningId', 'errors.generic'],
      ['screeningId=99999999999', 'screeningId', 'errors.generic'],
    ];
    for (const [query, path, message] of cases) {
      const response = await client.get(`/api/screenings?${query}`, { headers });
      expect(response, query).toMatchObject({ status: 400, body: { code: 'VALIDATION', issues: [{ path, message }] } });
    }
    expect(await auditEntries(app.db, 'SCREENING', ip)).toEqual([]);
  });
});

describe('GET /api/screenings/referrals', () => {
  it('answers her referrals, newest first, with the document to fetch, audited once as REFFERENCE', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    const response = await client.get('/api/screenings/referrals', { headers });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body.items).toEqual([
      { screeningId: ids.latest, createdAt: '2024-03-01T09:30:00.000Z', documentId: latestDocuments.referral, name: 'Skierowanie.pdf' },
      {
        screeningId: ids.pastMidnight,
        createdAt: '2023-07-05T22:10:00.000Z',
        documentId: documents.pastMidnightReferral,
        name: 'Skierowanie.pdf',
      },
      { screeningId: ids.lateEvening, createdAt: '2023-07-05T21:30:00.000Z', documentId: documents.lateReferral, name: 'Skierowanie.pdf' },
      { screeningId: ids.winter, createdAt: '2023-01-05T22:30:00.000Z', documentId: documents.winterReferral, name: 'Skierowanie.pdf' },
    ]);
    expect(await auditEntries(app.db, 'REFFERENCE', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'referrals list' },
    ]);
    // Each listed referral is what the referral call then serves.
    expect((await client.get(`/api/screening/referral?id=${ids.winter}`)).status).toBe(200);
  });

  it('compares the examination day inclusively in the given time zone', async () => {
    const client = await patientClient();
    const cases: [string, number[]][] = [
      // A screening at 23:30 Warsaw time on day D is in D and not in D+1 ...
      ['?from=2023-07-05&to=2023-07-05', [ids.lateEvening]],
      ['?to=2023-07-05', [ids.lateEvening, ids.winter]],
      // ... one at 00:10 Warsaw time on D+1 is in D+1 only, although it is still D in UTC.
      ['?from=2023-07-06&to=2023-07-06', [ids.pastMidnight]],
      ['?from=2023-07-06', [ids.latest, ids.pastMidnight]],
      ['?from=2023-01-05&to=2023-01-05', [ids.winter]],
      ['?from=2023-01-06&to=2023-01-06', []],
      ['?from=2023-01-05&to=2024-03-01', [ids.latest, ids.pastMidnight, ids.lateEvening, ids.winter]],
      // Another zone moves the same instants to other days.
      ['?from=2023-07-05&to=2023-07-05&timeZone=UTC', [ids.pastMidnight, ids.lateEvening]],
      ['?from=2023-07-06&to=2023-07-06&timeZone=UTC', []],
      ['?from=2023-07-06&to=2023-07-06&timeZone=Asia/Tokyo', [ids.pastMidnight, ids.lateEvening]],
      ['?from=2023-01-06&to=2023-01-06&timeZone=Asia/Tokyo', [ids.winter]],
    ];
    for (const [query, expected] of cases) expect(await referralIds(client, query), query).toEqual(expected);
  });

  it("never lists another patient's referral", async () => {
    const anna = await patientClient();
    expect(await referralIds(anna, '?from=2023-07-05&to=2023-07-06')).toEqual([ids.pastMidnight, ids.lateEvening]);
    const ewaClient = await signedIn(ewa.email, ewa.password);
    expect((await ewaClient.get('/api/screenings/referrals')).body.items).toEqual([
      { screeningId: ids.ewas, createdAt: '2023-07-05T21:45:00.000Z', documentId: documents.ewasReferral, name: 'Skierowanie.pdf' },
    ]);
  });

  it('answers 400 VALIDATION for bad days, a reversed range or an unknown zone', async () => {
    const { ip, headers } = nextAddress();
    const client = await patientClient(headers);
    for (const [query, path, message] of [
      ['from=2023-13-01', 'from', 'validation.audit.date.invalid'],
      ['from=2023-07-06&to=2023-07-05', 'to', 'validation.audit.range.invalid'],
      ['timeZone=Nowhere', 'timeZone', 'errors.generic'],
    ] as const) {
      const response = await client.get(`/api/screenings/referrals?${query}`, { headers });
      expect(response, query).toMatchObject({ status: 400, body: { code: 'VALIDATION', issues: [{ path, message }] } });
    }
    expect(await auditEntries(app.db, 'REFFERENCE', ip)).toEqual([]);
  });
});

it('answers 400 rather than failing when PostgreSQL does not know a zone that passed validation', async () => {
  // Node's and PostgreSQL's zone databases can be a release apart.
  const range = { from: '2023-07-05', timeZone: 'Nowhere/Unknown' };
  const badZone = { status: 400, code: 'VALIDATION', extra: { issues: [{ path: 'timeZone', message: 'errors.generic' }] } };
  await expect(findScreenings(app.db, seed.patient.userId, range)).rejects.toMatchObject(badZone);
  await expect(findReferrals(app.db, seed.patient.userId, range)).rejects.toMatchObject(badZone);
});

describe('who may read the lists', () => {
  it('refuses a result-portal session with 404 and writes the refusal to its own log, whatever the query', async () => {
    const { ip, headers } = nextAddress();
    const guest = await guestClient(headers);
    for (const path of [
      '/api/screenings',
      '/api/screenings?signed=maybe',
      '/api/screenings/referrals',
      '/api/screenings/referrals?from=x',
    ]) {
      expect(await guest.get(path, { headers }), path).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
    const refusal = (description: string) => ({ user_id: null, screening_id: seed.guest.screeningId, description });
    expect(await auditEntries(app.db, 'SCREENING_UNAUTHORIZED', ip)).toEqual([refusal('screenings list'), refusal('screenings list')]);
    expect(await auditEntries(app.db, 'REFFERENCE_UNAUTHORIZED', ip)).toEqual([refusal('referrals list'), refusal('referrals list')]);
  });

  it('answers 401 without a session and 403 while the password must be changed', async () => {
    const anonymous = app.client();
    await anonymous.fetchCsrf();
    const mustChange = await signedIn(seed.mustChange.login, seed.mustChange.password);
    for (const path of ['/api/screenings', '/api/screenings/referrals']) {
      expect(await anonymous.get(path)).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
      expect(await mustChange.get(path)).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });
    }
  });
});
