import type { Db } from '../../server/db';
import { PRODUCTS } from '../../db/seeds/catalog';
import type { TestApp, TestClient } from './app';
import { insertAccount, insertPerson, insertScreening } from './seed-minimal';

/** The demo catalog's products, by code: what the purchase tests buy. */
export async function insertCatalog(db: Db): Promise<Record<string, number>> {
  const rows: { id: number; code: string }[] = await db('products')
    .insert(PRODUCTS.map((product) => ({ ...product })))
    .returning(['id', 'code']);
  return Object.fromEntries(rows.map((row) => [row.code, row.id]));
}

/** One province and two of its towns, when the locality register is not what a test is about. */
export async function insertPlaces(db: Db): Promise<{ provinceId: number; cityId: number; otherProvinceCityId: number }> {
  const existing = await db('cities as c')
    .join('provinces as p', 'p.id', 'c.province_id')
    .where({ 'p.t_id': '14', 'c.name': 'Warszawa' })
    .first({ provinceId: 'p.id', cityId: 'c.id' });
  const other = await db('cities as c').join('provinces as p', 'p.id', 'c.province_id').whereNot('p.t_id', '14').first({ cityId: 'c.id' });
  if (existing && other) return { ...existing, otherProvinceCityId: other.cityId };
  const [mazowieckie] = await db('provinces').insert({ name: 'mazowieckie', t_id: '14' }).returning('id');
  const [malopolskie] = await db('provinces').insert({ name: 'małopolskie', t_id: '12' }).returning('id');
  const [warszawa] = await db('cities')
    .insert({ province_id: mazowieckie.id, name: 'Warszawa', pow_name: 'Warszawa', community_name: 'Warszawa' })
    .returning('id');
  const [krakow] = await db('cities')
    .insert({ province_id: malopolskie.id, name: 'Kraków', pow_name: 'Kraków', community_name: 'Kraków' })
    .returning('id');
  return { provinceId: mazowieckie.id, cityId: warszawa.id, otherProvinceCityId: krakow.id };
}

export async function insertSlot(db: Db, startsAt: Date, radiologistName = 'lek. Joanna Przykładowa'): Promise<number> {
  const [row] = await db('consultation_slots').insert({ radiologist_name: radiologistName, starts_at: startsAt }).returning('id');
  return row.id;
}

/** A patient with an account and one screening, signed in. */
export async function signedInPatient(app: TestApp, name: string): Promise<{ client: TestClient; userId: number; screeningId: number }> {
  const personId = await insertPerson(app.db, { firstName: name, lastName: 'Kupująca', birthAt: '1975-01-02' });
  const email = `${name.toLowerCase()}@example.com`;
  const userId = await insertAccount(app.db, personId, { email, password: 'Haslo!Testowe1' });
  const screeningId = await insertScreening(app.db, app.config, personId, {
    accessCode: `${name.slice(0, 4)}${String(userId).padStart(4, '0')}`.slice(0, 8),
    examinedAt: '2025-02-03T09:00:00Z',
  });
  const client = app.client();
  const login = await client.loginPortal(email, 'Haslo!Testowe1');
  if (login.status !== 200) throw new Error(`${name} could not sign in: ${login.status} ${JSON.stringify(login.body)}`);
  return { client, userId, screeningId };
}

/** The form of a copy sent by post, valid as the browser sends it. */
export function postalCopyForm(places: { provinceId: number; cityId: number }) {
  return {
    requestTypes: ['result', 'digital_images'],
    requestDigitalImage: true,
    healthCareInstitution: 'any: the server uses its own',
    docReceiver: 1,
    email: 'anna.testowa@example.com',
    address: {
      province: places.provinceId,
      city: places.cityId,
      postalCode: '02-495',
      street: 'Przykładowa',
      houseNumber: '12',
      apartmentNumber: '',
    },
    statement1: true,
    statement2: true,
    language: 'en',
  };
}

/** Waits until `check` holds, polling; fails the test with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
