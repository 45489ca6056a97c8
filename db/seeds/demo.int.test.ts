import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/config';
import { hashAccessCode } from '../../server/lib/access-code';
import { verifyPassword } from '../../server/lib/passwords';
import { readPdfText } from '../../tests/support/read-pdf-text';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { DemoDataRefusedError, seedDemoData } from './demo';
import { isValidPesel, peselBirthDate } from './pesel';

const PUBLIC_DIR = fileURLToPath(new URL('../../public', import.meta.url));
const TABLES = [
  'personal_data',
  'users',
  'screenings',
  'screening_descriptions',
  'screening_documents',
  'document_contents',
  'iso_images',
  'instructions',
  'banners',
  'products',
  'consultation_slots',
  'provinces',
  'cities',
  'orders',
  'copy_order_details',
  'payments',
];

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let database: TestDatabase;
let db: Knex;
let config: Config;
let dataDir: string;

async function tableCounts(knex: Knex): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = Number((await knex(table).count({ n: '*' }))[0]!.n);
  return counts;
}

/** Each screening of a person with the result of its first description (NULL when none). */
async function screeningsOf(email: string) {
  return db('screenings as s')
    .join('users as u', 'u.personal_data_id', 's.personal_data_id')
    .whereRaw('lower(u.email) = ?', [email])
    .select(
      's.id',
      's.descriptions_status',
      's.absorbed_dose_mgy',
      db.raw('(SELECT d.birads FROM screening_descriptions d WHERE d.screening_id = s.id ORDER BY d.id LIMIT 1) AS birads'),
    )
    .orderBy('s.examined_at');
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'demo-seed-'));
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'demo-seed-test-session-secret-0123456789',
    ACCESS_CODE_SECRET: 'demo-seed-test-access-code-secret-012345',
  });
  database = await createTestDatabase();
  db = database.db;
  await seedDemoData(db, config);
});

afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo data', () => {
  it('lets the result portal find the demo screening by code and birth date: result 2, described, no ISO requested', async () => {
    const screening = await db('screenings as s')
      .join('personal_data as p', 'p.id', 's.personal_data_id')
      .where('s.access_code_hash', hashAccessCode(config.accessCodeSecret, 'Xk7mP2qa'))
      .first('s.id', 's.descriptions_status', 'p.birth_at', 'p.first_name', 'p.last_name');
    expect(screening).toMatchObject({
      descriptions_status: 'desc_all_completed',
      birth_at: '1968-04-12',
      first_name: 'Katarzyna',
      last_name: 'Zielińska',
    });
    // Codes are case sensitive.
    expect(
      await db('screenings').where('access_code_hash', hashAccessCode(config.accessCodeSecret, 'xk7mP2qa')).first('id'),
    ).toBeUndefined();

    const descriptions = await db('screening_descriptions').where('screening_id', screening.id).orderBy('id');
    expect(descriptions.map((row) => row.language)).toEqual(['pl', 'en', 'de']);
    expect(descriptions[0].birads).toBe(2);
    expect(await db('iso_images').where('screening_id', screening.id).first()).toBeUndefined();

    const documents = await db('screening_documents').where('screening_id', screening.id).orderBy('name');
    expect(documents.map((row) => [row.kind, row.name])).toEqual([
      ['description', 'Opis badania DE.pdf'],
      ['description', 'Opis badania EN.pdf'],
      ['description', 'Opis badania.pdf'],
      ['referral', 'Skierowanie.pdf'],
      ['facilities_list', 'Wykaz placówek.pdf'],
    ]);
  });

  it('gives Anna a working password and seven or more screenings covering every result and both description states', async () => {
    const anna = await db('users as u')
      .join('personal_data as p', 'p.id', 'u.personal_data_id')
      .where('u.email', 'anna.nowak@example.com')
      .first();
    expect(await verifyPassword(anna.password_hash, sha256Hex('Mammo!2024demo'))).toBe(true);
    expect(await verifyPassword(anna.password_hash, sha256Hex('mammo!2024demo'))).toBe(false);
    expect(anna.require_password_change).toBe(false);
    expect(isValidPesel(anna.pesel)).toBe(true);
    expect(peselBirthDate(anna.pesel)).toBe(anna.birth_at);
    expect(anna.phone_number).toMatch(/^\+48\d{9}$/);

    const screenings = await screeningsOf('anna.nowak@example.com');
    expect(screenings.length).toBeGreaterThanOrEqual(7);
    expect(new Set(screenings.map((row) => row.birads))).toEqual(new Set([1, 2, 3, 4, 5, -1, null]));
    expect(new Set(screenings.map((row) => row.descriptions_status))).toEqual(new Set(['desc_all_completed', 'desc_in_progress']));
    for (const row of screenings) {
      expect(row.absorbed_dose_mgy).toBeGreaterThanOrEqual(2);
      expect(row.absorbed_dose_mgy).toBeLessThanOrEqual(6);
    }
  });

  it('gives every described screening a signed Polish description, and a referral where the result calls for one', async () => {
    const rows = await db('screenings as s')
      .leftJoin('screening_descriptions as d', 'd.screening_id', 's.id')
      .leftJoin('screening_documents as r', function joinReferral() {
        this.on('r.screening_id', 's.id').andOnVal('r.kind', 'referral');
      })
      .groupBy('s.id', 's.descriptions_status')
      .select(
        's.id',
        's.descriptions_status',
        db.raw('array_agg(DISTINCT d.language) FILTER (WHERE d.signed_at IS NOT NULL AND d.document_id IS NOT NULL) AS signed_languages'),
        db.raw('max(d.birads) AS birads'),
        db.raw('count(DISTINCT r.id)::int AS referrals'),
      );
    for (const row of rows) {
      if (row.descriptions_status === 'desc_in_progress') {
        expect(row.signed_languages).toBeNull();
        continue;
      }
      expect(row.signed_languages).toContain('pl');
      if ([-1, 3, 4, 5].includes(row.birads)) expect(row.referrals).toBe(1);
    }
    const translated = rows.flatMap((row) => row.signed_languages ?? []);
    expect(translated).toContain('en');
    expect(translated).toContain('de');
  });

  it('gives Anna referrals on several days and orders in every state of the screenings list', async () => {
    const screenings = await db('screenings as s')
      .join('users as u', 'u.personal_data_id', 's.personal_data_id')
      .where('u.email', 'anna.nowak@example.com')
      .select('s.id', db.raw("to_char(s.examined_at AT TIME ZONE 'Europe/Warsaw', 'YYYY-MM-DD') AS day"));
    const referralDays = await db('screening_documents')
      .whereIn(
        'screening_id',
        screenings.map((row) => row.id),
      )
      .where('kind', 'referral')
      .pluck('screening_id');
    expect(new Set(screenings.filter((row) => referralDays.includes(row.id)).map((row) => row.day)).size).toBeGreaterThanOrEqual(2);

    const orders = await db('orders as o')
      .join('products as p', 'p.id', 'o.product_id')
      .leftJoin('payments as pay', 'pay.order_id', 'o.id')
      .whereIn(
        'o.screening_id',
        screenings.map((row) => row.id),
      )
      .orderBy('o.id')
      .select(
        'o.screening_id',
        'o.done',
        'o.shipment_status',
        'o.price_grosze',
        'o.expires_at',
        'p.code',
        'p.price_grosze as product_price',
        'pay.status',
        'pay.amount_grosze',
      );
    expect(orders.map((order) => [order.code, order.done, order.status, order.shipment_status])).toEqual([
      ['copy-of-images', true, 'COMPLETED', 'sent'],
      ['copy-of-images', false, 'PENDING', 'not_applicable'],
      ['translation-de', false, 'NEW', 'not_applicable'],
      ['translation-en', true, 'CANCELED', 'not_applicable'],
      ['copy-of-records', true, null, 'collected'],
    ]);
    for (const order of orders) expect(order.price_grosze).toBe(order.product_price);
    for (const order of orders.filter((row) => row.status)) expect(order.amount_grosze).toBe(order.product_price);
    // DECISIONS.md 17: every unpaid demo order runs out, so none blocks her order button for ever.
    for (const order of orders.filter((row) => !row.done)) expect(order.expires_at).toBeInstanceOf(Date);
    expect(new Set(orders.map((order) => order.screening_id)).size).toBe(5);
  });

  it('holds Ewa on a required password change', async () => {
    const ewa = await db('users').where('email', 'ewa.wisniewska@example.com').first();
    expect(ewa.require_password_change).toBe(true);
    expect(await verifyPassword(ewa.password_hash, sha256Hex('Zmien!Haslo1'))).toBe(true);
    expect(await screeningsOf('ewa.wisniewska@example.com')).toHaveLength(1);
  });

  it('stores every PDF whole, with its checksum, readable with Polish diacritics intact', async () => {
    const documents = await db('screening_documents as d')
      .join('document_contents as c', 'c.document_id', 'd.id')
      .join('screenings as s', 's.id', 'd.screening_id')
      .join('personal_data as p', 'p.id', 's.personal_data_id')
      .select('d.kind', 'd.language', 'd.size_bytes', 'd.sha256', 'c.content', 'p.last_name', 'p.first_name');
    expect(documents.length).toBeGreaterThanOrEqual(20);
    for (const document of documents) {
      expect(document.content.length).toBe(document.size_bytes);
      expect(createHash('sha256').update(document.content).digest().equals(document.sha256)).toBe(true);
      const text = await readPdfText(document.content);
      expect(text).toContain('Przykładowe Centrum Mammografii');
      if (document.kind !== 'facilities_list') expect(text).toContain(`${document.first_name} ${document.last_name}`);
    }
    const katarzyna = documents.find(
      (document) => document.last_name === 'Zielińska' && document.kind === 'description' && document.language === 'pl',
    );
    const text = await readPdfText(katarzyna!.content);
    expect(text).toContain('Katarzyna Zielińska');
    expect(text).toContain('gruczołowa');
    expect(text).toContain('BI-RADS 2 – zmiana łagodna');

    const instructions = await db('instructions').orderBy(['type', 'language']);
    expect(instructions.map((row) => `${row.type}/${row.language}`)).toEqual([
      'iso/en',
      'iso/pl',
      'referral-information/en',
      'referral-information/pl',
    ]);
    expect(await readPdfText(instructions[1].content)).toContain('Jak otworzyć obraz');
    expect(await readPdfText(instructions[3].content)).toContain('zmiany łagodnej');
  });

  it('has the products, banners, future consultation slots and the provinces with their cities', async () => {
    const prices = Object.fromEntries((await db('products').select('kind', 'price_grosze')).map((row) => [row.kind, row.price_grosze]));
    expect(prices).toMatchObject({ copy: 2100, consultation: 20000 });
    expect(prices.translation_en).toBeGreaterThan(0);
    expect(prices.translation_de).toBeGreaterThan(0);

    const banners = await db('banners').where('active', true);
    expect(new Set(banners.map((banner) => banner.position))).toEqual(new Set(['top-placement', 'bottom-placement']));
    for (const banner of banners) expect(existsSync(path.join(PUBLIC_DIR, banner.image_url))).toBe(true);

    const slots = await db('consultation_slots').select('starts_at');
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots) expect(new Date(slot.starts_at).getTime()).toBeGreaterThan(Date.now());

    const provinces = await db('provinces as p')
      .leftJoin('cities as c', 'c.province_id', 'p.id')
      .groupBy('p.id')
      .select('p.name', 'p.t_id', db.raw('count(c.id)::int AS cities'));
    expect(provinces).toHaveLength(16);
    expect(provinces.find((province) => province.name === 'mazowieckie')?.t_id).toBe('14');
    for (const province of provinces) expect(province.cities).toBeGreaterThanOrEqual(8);
    expect(await db('cities').where({ name: 'Wieliczka' }).first('pow_name', 'community_name')).toEqual({
      pow_name: 'wielicki',
      community_name: 'Wieliczka',
    });
  });

  it('changes nothing when it runs again', async () => {
    const before = await tableCounts(db);
    const hashes = await db('users').orderBy('id').pluck('password_hash');
    await seedDemoData(db, config);
    expect(await tableCounts(db)).toEqual(before);
    expect(await db('users').orderBy('id').pluck('password_hash')).toEqual(hashes);
  });

  it('refuses to run in production before touching the database', async () => {
    const untouchable = new Proxy(() => undefined, {
      get() {
        throw new Error('the database was used');
      },
      apply() {
        throw new Error('the database was used');
      },
    }) as unknown as Knex;
    await expect(seedDemoData(untouchable, { ...config, isProduction: true })).rejects.toBeInstanceOf(DemoDataRefusedError);
  });

  it('leaves nothing behind when it fails halfway', async () => {
    const empty = await createTestDatabase();
    try {
      // Ewa's PESEL taken by someone else: the seed fails after Katarzyna and Anna were written.
      await empty.db('personal_data').insert({ first_name: 'Inna', last_name: 'Osoba', birth_at: '1971-09-03', pesel: '71090303249' });
      await expect(seedDemoData(empty.db, config)).rejects.toThrow(/personal_data_pesel_key/);
      const counts = await tableCounts(empty.db);
      expect(counts).toMatchObject({
        personal_data: 1,
        users: 0,
        screenings: 0,
        screening_documents: 0,
        products: 0,
        consultation_slots: 0,
        // The register of places is reference data, loaded before the demo data and kept.
        provinces: 16,
      });
    } finally {
      await empty.drop();
    }
  });
});
