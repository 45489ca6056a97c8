import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, sha256Hex, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

const consents = { portalTerms: true, policyTerms: true };

async function postLogin(body: unknown, headers: Record<string, string> = {}) {
  const client = app.client();
  await client.fetchCsrf();
  return client.post('/api/auth/portal/login', body, { headers });
}

describe('POST /api/auth/portal/login (patient portal)', () => {
  it('signs a patient in and answers her session user with a fresh token', async () => {
    const client = app.client();
    const response = await client.loginPortal(seed.patient.login, seed.patient.password);

    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({
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
    expect(typeof response.body.csrfToken).toBe('string');
  });

  it('matches the login without regard to letter case and surrounding blanks', async () => {
    const response = await postLogin({
      login: `  ${seed.patient.login.toUpperCase()} `,
      password: sha256Hex(seed.patient.password),
      ...consents,
    });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(seed.patient.userId);
  });

  it('records the login time and a LOGIN_PORTAL audit entry with the IP', async () => {
    await postLogin(
      { login: seed.patient.login, password: sha256Hex(seed.patient.password), ...consents },
      { 'x-forwarded-for': '198.51.100.20' },
    );

    const entry = await app.db('audit_entries').where({ type: 'LOGIN_PORTAL', ip: '198.51.100.20' }).first();
    expect(entry).toMatchObject({ user_id: seed.patient.userId, screening_id: null });
    const user = await app.db('users').where({ id: seed.patient.userId }).first();
    expect(user.last_login_at).toBeInstanceOf(Date);
  });

  it('refuses a wrong password with LOGIN_FAILED and logs it to the account, without the password', async () => {
    const typed = sha256Hex('Wrong!Password1');
    const response = await postLogin({ login: seed.patient.login, password: typed, ...consents }, { 'x-forwarded-for': '198.51.100.21' });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'LOGIN_FAILED' });
    const entry = await app.db('audit_entries').where({ type: 'LOGIN_PORTAL_UNAUTHORIZED', ip: '198.51.100.21' }).first();
    expect(entry).toMatchObject({ user_id: seed.patient.userId, description: 'wrong_password' });
    expect(JSON.stringify(entry)).not.toContain(typed);
  });

  it('refuses an unknown login exactly like a wrong password, and keeps nothing of what was typed', async () => {
    const response = await postLogin(
      { login: 'nobody.here@example.com', password: sha256Hex('whatever'), ...consents },
      { 'x-forwarded-for': '198.51.100.22' },
    );

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'LOGIN_FAILED' });
    const entry = await app.db('audit_entries').where({ type: 'LOGIN_PORTAL_UNAUTHORIZED', ip: '198.51.100.22' }).first();
    expect(entry).toMatchObject({ user_id: null, screening_id: null, description: 'unknown_login' });
    expect(await app.db('audit_entries').where('description', 'like', '%nobody%')).toHaveLength(0);
  });

  it('tells a disabled account so with 403 ACCOUNT_DISABLED, but only to whoever knows its password', async () => {
    const right = await postLogin({ login: seed.disabled.login, password: sha256Hex(seed.disabled.password), ...consents });
    expect(right.status).toBe(403);
    expect(right.body).toEqual({ code: 'ACCOUNT_DISABLED' });

    const wrong = await postLogin({ login: seed.disabled.login, password: sha256Hex('guess'), ...consents });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'LOGIN_FAILED' });
  });

  it('does not sign in a disabled account', async () => {
    const client = app.client();
    await client.loginPortal(seed.disabled.login, seed.disabled.password);
    expect((await client.get('/api/user/profile')).status).toBe(401);
  });

  it('answers requirePasswordChange for a patient who must change the password', async () => {
    const response = await postLogin({ login: seed.mustChange.login, password: sha256Hex(seed.mustChange.password), ...consents });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: seed.mustChange.userId, requirePasswordChange: true });
  });

  describe('validation (spec section 5), one catalog key per field', () => {
    const password = sha256Hex('anything');
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      [
        'nothing sent',
        {},
        {
          login: 'validation.login.required',
          password: 'validation.password.required',
          portalTerms: 'validation.consent.required',
          policyTerms: 'validation.consent.required',
        },
      ],
      ['a blank login', { login: '   ', password, ...consents }, { login: 'validation.login.required' }],
      ['an empty password', { login: 'a@example.com', password: '', ...consents }, { password: 'validation.password.required' }],
      [
        'a password the browser did not hash',
        { login: 'a@example.com', password: 'Mammo!2024demo', ...consents },
        { password: 'validation.password.notHashed' },
      ],
      [
        'no consents',
        { login: 'a@example.com', password },
        { portalTerms: 'validation.consent.required', policyTerms: 'validation.consent.required' },
      ],
    ];

    it.each(cases)('%s', async (_name, body, expected) => {
      const response = await postLogin(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION');
      expect(Object.fromEntries(response.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]))).toEqual(expected);
    });
  });
});
