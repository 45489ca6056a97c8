import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';

let app: TestApp;
let seed: MinimalSeed;
let ipCounter = 0;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

/** Each call from a browser at its own address (trust proxy is loopback, X-Forwarded-For counts). */
async function browser(ip = `198.51.100.${++ipCounter}`) {
  const client = app.client();
  const headers = { 'x-forwarded-for': ip };
  await client.get('/api/auth/csrf', { headers });
  return (body: Record<string, unknown>) => client.post('/api/auth/password/reset', { language: 'pl', ...body }, { headers });
}

describe('reset throttling (default limits)', () => {
  it('sends three links per address, then answers 429 whoever asks, with or without an account', async () => {
    for (const email of ['ktos.obcy@example.com', seed.patient.login]) {
      for (let attempt = 1; attempt <= 3; attempt++) expect((await (await browser())({ email })).status).toBe(200);

      const refused = await (await browser())({ email: email.toUpperCase() });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 300 });
      expect(refused.headers.get('retry-after')).toBe('300');
    }
    await expect
      .poll(() =>
        app
          .db('outbox_messages')
          .count({ n: '*' })
          .first()
          .then((row) => row?.n),
      )
      .toBe(3);
  });

  it('counts a phone number once however it is spelled', async () => {
    const spellings = ['600 200 300', '+48600200300', '+48 600 200 300'];
    for (const phoneNumber of spellings) expect((await (await browser())({ phoneNumber })).status).toBe(200);

    expect((await (await browser())({ phoneNumber: '600200300' })).status).toBe(429);
  });

  it('lets one IP ask twenty times an hour across addresses', async () => {
    const ask = await browser('192.0.2.10');
    for (let n = 1; n <= 20; n++) expect((await ask({ email: `adres${n}@example.com` })).status).toBe(200);

    expect((await ask({ email: 'adres21@example.com' })).status).toBe(429);
    // Another address is not affected.
    expect((await (await browser('192.0.2.11'))({ email: 'adres22@example.com' })).status).toBe(200);
  });
});
