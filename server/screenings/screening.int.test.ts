import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

function unauthorizedEntries(ip: string) {
  return app
    .db('audit_entries')
    .where({ type: 'SCREENING_UNAUTHORIZED', ip })
    .orderBy('id')
    .select('user_id', 'screening_id', 'description');
}

describe('GET /api/screening as a result-portal guest', () => {
  it('answers her screening, with or without its id', async () => {
    const client = app.client();
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);
    const expected = { id: seed.guest.screeningId, createdAt: '2024-05-10T08:15:00.000Z' };
    expect(await client.get('/api/screening')).toMatchObject({ status: 200, body: expected });
    expect(await client.get(`/api/screening?id=${seed.guest.screeningId}`)).toMatchObject({ status: 200, body: expected });
  });

  it('answers 404 for another screening and writes SCREENING_UNAUTHORIZED to her own log', async () => {
    const client = app.client();
    const ip = { 'x-forwarded-for': '203.0.113.50' };
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt, ip);
    const response = await client.get(`/api/screening?id=${seed.patient.latestScreeningId}`, { headers: ip });

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND' });
    expect(await unauthorizedEntries('203.0.113.50')).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: `screening ${seed.patient.latestScreeningId}` },
    ]);
  });
});

describe('GET /api/screening as a patient', () => {
  it('answers her latest screening without an id, and any of hers by id', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    expect((await client.get('/api/screening')).body).toEqual({
      id: seed.patient.latestScreeningId,
      createdAt: '2024-03-01T09:30:00.000Z',
    });
    expect((await client.get(`/api/screening?id=${seed.patient.olderScreeningId}`)).body).toEqual({
      id: seed.patient.olderScreeningId,
      createdAt: '2021-03-01T09:00:00.000Z',
    });
  });

  it("answers 404 alike for someone else's screening and for one that does not exist, auditing both", async () => {
    const client = app.client();
    const ip = { 'x-forwarded-for': '203.0.113.51' };
    await client.loginPortal(seed.patient.login, seed.patient.password, ip);
    const foreign = await client.get(`/api/screening?id=${seed.guest.screeningId}`, { headers: ip });
    const missing = await client.get('/api/screening?id=999999', { headers: ip });

    for (const response of [foreign, missing]) expect(response).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    // Auditing only existing ids would let the patient read which ids exist in her own log.
    expect(await unauthorizedEntries('203.0.113.51')).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: `screening ${seed.guest.screeningId}` },
      { user_id: seed.patient.userId, screening_id: null, description: 'screening 999999' },
    ]);
  });

  it('answers 404 for an id that cannot be one', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    for (const id of ['abc', '-1', '0', '1.5', '99999999999']) {
      expect((await client.get(`/api/screening?id=${id}`)).status).toBe(404);
    }
  });
});

it('answers 401 without a signed-in session', async () => {
  const client = app.client();
  await client.fetchCsrf();
  expect(await client.get('/api/screening')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
});
