import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfText } from '../../tests/support/read-pdf-text';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { textPdf } from '../../tests/support/screening-documents';

let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  await app.db('banners').insert([
    { position: 'top-placement', image_url: '/banners/b.svg', link_url: null, alt_pl: 'Drugi', alt_en: 'Second', sort_order: 2 },
    {
      position: 'top-placement',
      image_url: '/banners/a.svg',
      link_url: 'https://example.org/a',
      alt_pl: 'Pierwszy',
      alt_en: 'First',
      sort_order: 1,
    },
    {
      position: 'top-placement',
      image_url: '/banners/old.svg',
      link_url: null,
      alt_pl: 'Stary',
      alt_en: 'Old',
      sort_order: 0,
      active: false,
    },
    { position: 'bottom-placement', image_url: '/banners/c.svg', link_url: null, alt_pl: 'Dolny', alt_en: 'Bottom', sort_order: 1 },
  ]);
  const instructions = [
    ['iso', 'pl', 'Instrukcja obrazu ISO.pdf', 'Instrukcja ISO PL'],
    ['iso', 'en', 'ISO image instructions.pdf', 'ISO instructions EN'],
    ['referral-information', 'pl', 'Informacja o skierowaniu.pdf', 'Informacja PL'],
    ['referral-information', 'en', 'About your referral.pdf', 'Referral information EN'],
  ] as const;
  for (const [type, language, name, text] of instructions) {
    await app.db('instructions').insert({ type, language, name, content: await textPdf(text) });
  }
});
afterAll(() => app?.close());

async function signedIn(kind: 'guest' | 'patient'): Promise<TestClient> {
  const client = app.client();
  if (kind === 'guest') await client.loginResult(seed.guest.accessCode, seed.guest.birthAt);
  else await client.loginPortal(seed.patient.login, seed.patient.password);
  return client;
}

async function bodyText(client: TestClient, path: string): Promise<string> {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${app.baseUrl}${path}`, { headers: { cookie } });
  return readPdfText(new Uint8Array(await response.arrayBuffer()));
}

describe('GET /api/banners', () => {
  it('answers the active banners of one placement in their order, with both alt texts', async () => {
    const client = await signedIn('guest');
    expect((await client.get('/api/banners?type=top-placement')).body).toEqual([
      {
        id: expect.any(Number),
        position: 'top-placement',
        imageUrl: '/banners/a.svg',
        linkUrl: 'https://example.org/a',
        alt: { pl: 'Pierwszy', en: 'First' },
      },
      { id: expect.any(Number), position: 'top-placement', imageUrl: '/banners/b.svg', linkUrl: null, alt: { pl: 'Drugi', en: 'Second' } },
    ]);
    const patient = await signedIn('patient');
    expect((await patient.get('/api/banners?type=bottom-placement')).body).toEqual([
      {
        id: expect.any(Number),
        position: 'bottom-placement',
        imageUrl: '/banners/c.svg',
        linkUrl: null,
        alt: { pl: 'Dolny', en: 'Bottom' },
      },
    ]);
  });

  it('answers 400 for an unknown placement and 401 without a session', async () => {
    const client = await signedIn('patient');
    expect(await client.get('/api/banners?type=side')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', issues: [{ path: 'type' }] },
    });
    expect((await client.get('/api/banners')).status).toBe(400);
    const anonymous = app.client();
    await anonymous.fetchCsrf();
    expect((await anonymous.get('/api/banners?type=top-placement')).status).toBe(401);
  });
});

describe('GET /api/instructions', () => {
  it.each([
    ['/api/instructions?type=iso&lang=pl', 'Instrukcja obrazu ISO.pdf', 'Instrukcja ISO PL'],
    ['/api/instructions?type=iso&lang=en', 'ISO image instructions.pdf', 'ISO instructions EN'],
    ['/api/instructions?type=referral-information', 'Informacja o skierowaniu.pdf', 'Informacja PL'],
    ['/api/instructions?type=referral-information&lang=en', 'About your referral.pdf', 'Referral information EN'],
    ['/api/instructions/iso', 'Instrukcja obrazu ISO.pdf', 'Instrukcja ISO PL'],
    ['/api/instructions/iso?lang=en', 'ISO image instructions.pdf', 'ISO instructions EN'],
  ])('%s answers %s', async (path, fileName, text) => {
    const client = await signedIn('guest');
    const response = await client.get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
    expect(await bodyText(client, path)).toBe(text);
  });

  it('answers 400 for an unknown type or language, 404 when none is stored, 401 without a session', async () => {
    const client = await signedIn('patient');
    expect((await client.get('/api/instructions?type=manual')).status).toBe(400);
    expect((await client.get('/api/instructions?type=iso&lang=de')).status).toBe(400);
    await app.db('instructions').where({ type: 'iso', language: 'en' }).delete();
    expect(await client.get('/api/instructions/iso?lang=en')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const anonymous = app.client();
    await anonymous.fetchCsrf();
    expect((await anonymous.get('/api/instructions/iso')).status).toBe(401);
    expect((await anonymous.get('/api/instructions?type=iso')).status).toBe(401);
  });
});
