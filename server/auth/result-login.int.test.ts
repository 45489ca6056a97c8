import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

const consents = { portalTerms: true, policyTerms: true };

async function postLogin(body: unknown) {
  const client = app.client();
  await client.fetchCsrf();
  return client.post('/api/auth/login', body);
}

describe('POST /api/auth/login (result portal)', () => {
  it('signs a guest in to her one screening and answers the guest session user with a fresh token', async () => {
    const client = app.client();
    const anonymousToken = await client.fetchCsrf();
    const response = await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);

    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({
      id: null,
      guest: true,
      email: null,
      personalDataId: null,
      requirePasswordChange: false,
      personalData: null,
      screeningId: seed.guest.screeningId,
    });
    expect(response.body.csrfToken).toMatch(/^[\w-]{20,}$/);
    expect(response.body.csrfToken).not.toBe(anonymousToken);
    expect((await client.get('/api/user/profile')).body.screeningId).toBe(seed.guest.screeningId);
  });

  it("writes LOGIN_RESULT with the caller's IP to the screening's audit log", async () => {
    const client = app.client();
    await client.loginResult(seed.guest.accessCode, seed.guest.birthAt, { 'x-forwarded-for': '203.0.113.7' });

    const entries = await app.db('audit_entries').where({ type: 'LOGIN_RESULT', ip: '203.0.113.7' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ screening_id: seed.guest.screeningId, user_id: null });
  });

  it('takes the access code case-sensitively: a wrong case is a wrong code', async () => {
    const response = await postLogin({ accessCode: seed.guest.accessCode.toLowerCase(), birthAt: seed.guest.birthAt, ...consents });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'INVALID_ACCESS_CODE' });
  });

  it('refuses an unknown code and a wrong birth date with the same answer', async () => {
    const unknownCode = await postLogin({ accessCode: 'Zz9Zz9Zz', birthAt: seed.guest.birthAt, ...consents });
    const wrongBirthDate = await postLogin({ accessCode: seed.guest.accessCode, birthAt: '1968-04-13', ...consents });
    for (const response of [unknownCode, wrongBirthDate]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'INVALID_ACCESS_CODE' });
    }
  });

  it('leaves a refused caller signed out', async () => {
    const client = app.client();
    await client.fetchCsrf();
    await client.post('/api/auth/login', { accessCode: 'Zz9Zz9Zz', birthAt: seed.guest.birthAt, ...consents });
    expect((await client.get('/api/user/profile')).status).toBe(401);
  });

  describe('validation (spec section 5), one catalog key per field', () => {
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      [
        'nothing sent',
        {},
        {
          accessCode: 'validation.accessCode.required',
          birthAt: 'validation.birthAt.invalid',
          portalTerms: 'validation.consent.required',
          policyTerms: 'validation.consent.required',
        },
      ],
      ['an empty access code', { accessCode: '', birthAt: '1968-04-12', ...consents }, { accessCode: 'validation.accessCode.required' }],
      [
        'an access code of blanks',
        { accessCode: '   ', birthAt: '1968-04-12', ...consents },
        { accessCode: 'validation.accessCode.required' },
      ],
      [
        'an access code with a symbol',
        { accessCode: 'Xk7mP2q!', birthAt: '1968-04-12', ...consents },
        { accessCode: 'validation.accessCode.invalid' },
      ],
      [
        'an access code longer than 8',
        { accessCode: 'Xk7mP2qa9', birthAt: '1968-04-12', ...consents },
        { accessCode: 'validation.accessCode.invalid' },
      ],
      [
        'a birth date without dashes',
        { accessCode: 'Xk7mP2qa', birthAt: '19680412', ...consents },
        { birthAt: 'validation.birthAt.invalid' },
      ],
      ['month 13', { accessCode: 'Xk7mP2qa', birthAt: '1968-13-01', ...consents }, { birthAt: 'validation.birthAt.invalid' }],
      ['day 32', { accessCode: 'Xk7mP2qa', birthAt: '1968-01-32', ...consents }, { birthAt: 'validation.birthAt.invalid' }],
      [
        'terms not accepted',
        { accessCode: 'Xk7mP2qa', birthAt: '1968-04-12', portalTerms: false, policyTerms: true },
        { portalTerms: 'validation.consent.required' },
      ],
      [
        'privacy policy missing',
        { accessCode: 'Xk7mP2qa', birthAt: '1968-04-12', portalTerms: true },
        { policyTerms: 'validation.consent.required' },
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
