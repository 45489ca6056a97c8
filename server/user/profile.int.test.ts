import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

describe('GET /api/user/profile', () => {
  it('answers 401 UNAUTHENTICATED without a session, and with an anonymous one', async () => {
    const client = app.client();
    expect(await client.get('/api/user/profile')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
    await client.fetchCsrf();
    expect(await client.get('/api/user/profile')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  });

  it('answers a guest without any personal data', async () => {
    const client = app.client();
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);
    const response = await client.get('/api/user/profile');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: null,
      guest: true,
      email: null,
      personalDataId: null,
      requirePasswordChange: false,
      personalData: null,
      screeningId: seed.guest.screeningId,
    });
  });

  it('answers a patient with her account and personal data', async () => {
    const client = app.client();
    await client.loginPortal(seed.patient.login, seed.patient.password);
    const response = await client.get('/api/user/profile');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: seed.patient.userId,
      guest: false,
      email: seed.patient.login,
      personalDataId: seed.patient.personalDataId,
      requirePasswordChange: false,
      personalData: {
        firstName: 'Anna',
        lastName: 'Testowa',
        birthAt: '1970-05-06',
        pesel: '70050612345',
        email: 'anna.prywatna@example.com',
        phoneNumber: '+48600100200',
      },
      screeningId: null,
    });
  });

  it('stays open to a patient who must change the password, while other calls are refused', async () => {
    const client = app.client();
    await client.loginPortal(seed.mustChange.login, seed.mustChange.password);

    const profile = await client.get('/api/user/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.requirePasswordChange).toBe(true);

    const screening = await client.get('/api/screening');
    expect(screening.status).toBe(403);
    expect(screening.body).toEqual({ code: 'PASSWORD_CHANGE_REQUIRED' });
    expect((await client.logout()).status).toBe(200);
  });

  it('ends the session of an account disabled after login', async () => {
    const client = app.client();
    await client.loginPortal(seed.mustChange.login, seed.mustChange.password);
    await app.db('users').where({ id: seed.mustChange.userId }).update({ disabled_at: new Date() });
    try {
      expect((await client.get('/api/user/profile')).status).toBe(401);
      await app.db('users').where({ id: seed.mustChange.userId }).update({ disabled_at: null });
      expect((await client.get('/api/user/profile')).status).toBe(401);
    } finally {
      await app.db('users').where({ id: seed.mustChange.userId }).update({ disabled_at: null });
    }
  });
});
