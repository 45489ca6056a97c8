import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

const stored = async (userId: number) => (await app.db('users').where({ id: userId }).first('result_notices')).result_notices;

describe('/api/user/notices', () => {
  it('lets the patient read and switch off, then on, her result notices', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    expect(await client.get('/api/user/notices')).toMatchObject({ status: 200, body: { resultNotices: true } });

    const off = await client.request('PATCH', '/api/user/notices', { body: { resultNotices: false } });
    expect(off).toMatchObject({ status: 200, body: { resultNotices: false } });
    expect(await stored(seed.patient.userId)).toBe(false);
    expect(await client.get('/api/user/notices')).toMatchObject({ status: 200, body: { resultNotices: false } });

    const on = await client.request('PATCH', '/api/user/notices', { body: { resultNotices: true } });
    expect(on).toMatchObject({ status: 200, body: { resultNotices: true } });
    expect(await stored(seed.patient.userId)).toBe(true);
  });

  it('refuses a body without a boolean', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    for (const body of [{}, { resultNotices: 'false' }, { resultNotices: null }]) {
      const response = await client.request('PATCH', '/api/user/notices', { body });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION');
    }
    expect(await stored(seed.patient.userId)).toBe(true);
  });

  it('refuses a change without the CSRF token', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    const response = await client.request('PATCH', '/api/user/notices', { body: { resultNotices: false }, withoutCsrf: true });
    expect(response.status).toBe(403);
    expect(await stored(seed.patient.userId)).toBe(true);
  });

  it('answers 401 without a session and 404 to a guest, who has no account', async () => {
    const anonymous = app.client();
    expect((await anonymous.get('/api/user/notices')).status).toBe(401);
    await anonymous.fetchCsrf();
    expect((await anonymous.request('PATCH', '/api/user/notices', { body: { resultNotices: false } })).status).toBe(401);

    const guest = app.client();
    await guest.loginResult(seed.guest.accessCode, seed.guest.birthAt);
    expect(await guest.get('/api/user/notices')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await guest.request('PATCH', '/api/user/notices', { body: { resultNotices: false } })).status).toBe(404);
  });

  it('is closed to a patient who must change her password first', async () => {
    const client = app.client();
    await client.loginPortal(seed.mustChange.login, seed.mustChange.password);
    expect(await client.get('/api/user/notices')).toMatchObject({ status: 403, body: { code: 'PASSWORD_CHANGE_REQUIRED' } });
    expect(await stored(seed.mustChange.userId)).toBe(true);
  });
});
