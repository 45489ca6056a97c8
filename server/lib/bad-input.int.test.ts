import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

/**
 * Input no form sends, answered 400 with a code rather than 500 (issue 16: 31 answers of 500 to
 * bad input), and nothing half done.
 */
let app: TestApp;
let seed: MinimalSeed;
beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

const contactMessage = {
  firstName: 'Maria',
  lastName: 'Kowalska',
  email: 'maria.kowalska@example.com',
  phoneNumber: '600 100 200',
  content: 'Proszę o kontakt w sprawie terminu badania.',
  consent: true,
  language: 'pl',
};

describe('a body whose Content-Encoding does not inflate', () => {
  it.each(['gzip', 'deflate', 'br'])('answers 400 BAD_REQUEST for %s that is not', async (encoding) => {
    const client = app.client();
    await client.fetchCsrf();
    const response = await client.post('/api/contact/create', undefined, {
      rawBody: 'this is not compressed at all',
      headers: { 'content-encoding': encoding },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'BAD_REQUEST' });
  });

  it('still reads a body that does inflate', async () => {
    const client = app.client();
    await client.fetchCsrf();
    const response = await fetch(`${app.baseUrl}/api/contact/create`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-csrf-token': client.csrfToken!,
        'x-forwarded-for': '198.51.100.200',
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: gzipSync(JSON.stringify({ ...contactMessage, content: '' })),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('VALIDATION');
  });
});

describe('U+0000, which PostgreSQL cannot store in text', () => {
  it('answers the contact form 400 VALIDATION on the field that holds it, and stores nothing', async () => {
    const before = await app.db('contact_messages').count({ n: '*' }).first();
    const client = app.client();
    await client.fetchCsrf();
    const response = await client.post(
      '/api/contact/create',
      { ...contactMessage, content: 'Proszę\u0000 o kontakt' },
      { headers: { 'x-forwarded-for': '198.51.100.201' } },
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION', issues: [{ path: 'content', message: 'validation.unstorableCharacter' }] });
    expect(await app.db('contact_messages').count({ n: '*' }).first()).toEqual(before);
  });

  it('answers 400 BAD_REQUEST for it in a query or a path', async () => {
    const patient = await seededSignIns(app, seed).patient();
    for (const path of ['/api/audit?from=%00', '/api/screening/%00/referral/exists', '/api/screenings?q=a%00b']) {
      const response = await patient.get(path);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual({ code: 'BAD_REQUEST' });
    }
  });
});

describe('an undecodable path parameter', () => {
  it('answers 400 BAD_REQUEST', async () => {
    const patient = await seededSignIns(app, seed).patient();
    const response = await patient.get('/api/screening/%ff/referral/exists');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'BAD_REQUEST' });
  });
});

it('logs no error for any of the above', () => {
  const errors = app.logs.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
  expect(errors).toEqual([]);
});
