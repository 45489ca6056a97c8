import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededSignIns, startTestApp, type TestApp, type TestClient } from '../../tests/support/app';
import { insertPlaces, signedInPatient } from '../../tests/support/orders';
import { seedMinimal } from '../../tests/support/seed-minimal';
import { foldPlaceName } from '../../common/validation/geography';
import { loadLocalityRegister } from './register-loader';

let app: TestApp;
let patient: TestClient;
let placeEnteredBefore: { cityId: number };
let localities: number;
let loadMs: number;

beforeAll(async () => {
  app = await startTestApp();
  // A place entered before the register (as an older install had it) must keep its id.
  placeEnteredBefore = await insertPlaces(app.db);
  const started = performance.now();
  localities = await loadLocalityRegister(app.db);
  loadMs = performance.now() - started;
  patient = (await signedInPatient(app, 'Szukająca')).client;
}, 120_000);
afterAll(() => app?.close());

type CityAnswer = { id: number; name: string; district: string; municipality: string; kind: string | null };
const cities = async (provinceTid: string, cityName: string): Promise<CityAnswer[]> => {
  const response = await patient.get(`/api/screening/cities?${new URLSearchParams({ provinceTid, cityName })}`);
  expect(response.status).toBe(200);
  return response.body;
};

describe('the locality register', () => {
  it('holds every province and every town and village of Poland, loaded once', async () => {
    expect(localities).toBeGreaterThan(43_000);
    // Loaded at every start of a fresh database: it must stay quick.
    expect(loadMs).toBeLessThan(30_000);
    const provinces = (await patient.get('/api/screening/provinces')).body;
    expect(provinces).toHaveLength(16);
    expect(provinces[0]).toMatchObject({ name: 'dolnośląskie', tId: '02' });
    expect(provinces.map((province: { tId: string }) => province.tId).sort()).toEqual([
      '02',
      '04',
      '06',
      '08',
      '10',
      '12',
      '14',
      '16',
      '18',
      '20',
      '22',
      '24',
      '26',
      '28',
      '30',
      '32',
    ]);
    const count = async () => Number((await app.db('cities').count({ n: '*' }).first())!.n);
    const before = await count();
    expect(await loadLocalityRegister(app.db)).toBe(localities);
    expect(await count()).toBe(before);
    // Warszawa, entered before, became the register's own entry instead of a second one.
    const warszawa = await cities('14', 'Warszawa');
    expect(warszawa[0]).toMatchObject({ id: placeEnteredBefore.cityId, name: 'Warszawa', kind: 'city' });
    expect(warszawa.filter((city) => city.name === 'Warszawa')).toHaveLength(1);
  });

  it('ignores case and Polish letters, and puts the exact name first', async () => {
    expect((await cities('10', 'lodz'))[0]).toMatchObject({ name: 'Łódź', district: 'Łódź', municipality: 'Łódź', kind: 'city' });
    expect((await cities('10', 'ŁÓDŹ'))[0]!.name).toBe('Łódź');
    expect((await cities('24', 'zory'))[0]!.name).toBe('Żory');
    // Łódź is also a village near Poznań: found in its own province only.
    expect((await cities('30', 'lodz')).map((city) => [city.name, city.district])).toContainEqual(['Łódź', 'poznański']);
  });

  it('ranks exact, then prefix, then word-prefix matches', async () => {
    const found = await cities('14', 'ostrow');
    const names = found.map((city) => city.name);
    expect(names[0]).toBe('Ostrów');
    expect(names).toContain('Ostrów Mazowiecka');
    const byWord = await cities('14', 'mazowiecka');
    expect(byWord.some((city) => city.name === 'Ostrów Mazowiecka')).toBe(true);
    expect(byWord.every((city) => /(^|[ -])mazowiecka/i.test(city.name))).toBe(true);
    expect((await cities('16', 'kozle')).map((city) => city.name)).toContain('Kędzierzyn-Koźle');
    const ranks = found.map((city) => (foldPlaceName(city.name) === 'ostrow' ? 0 : foldPlaceName(city.name).startsWith('ostrow') ? 1 : 2));
    expect(ranks).toEqual([...ranks].sort());
  });

  it('tells apart the many places of one name by powiat and gmina', async () => {
    const nowaWies = (await cities('14', 'Nowa Wieś')).filter((city) => city.name === 'Nowa Wieś');
    expect(nowaWies.length).toBeGreaterThan(5);
    expect(new Set(nowaWies.map((city) => `${city.district}/${city.municipality}`)).size).toBe(nowaWies.length);
  });

  it('treats typed wildcards as letters', async () => {
    expect(await cities('14', '%%')).toEqual([]);
    expect(await cities('14', '__')).toEqual([]);
  });

  it('searches from two characters, for patients only', async () => {
    const short = await patient.get('/api/screening/cities?provinceTid=10&cityName=l');
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('VALIDATION');
    expect((await patient.get('/api/screening/cities?provinceTid=1&cityName=lodz')).status).toBe(400);
    expect((await app.client().get('/api/screening/provinces')).status).toBe(401);
    const guest = await seededSignIns(app, await seedMinimal(app.db, app.config)).guest();
    expect((await guest.get('/api/screening/provinces')).status).toBe(404);
    expect((await guest.get('/api/screening/cities?provinceTid=10&cityName=lodz')).status).toBe(404);
  });
});
