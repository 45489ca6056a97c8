import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_PAGE_ANSWERS_ID, RESULT_PAGE_BUILD, type ResultPageAnswers } from '../../common/drawn-result-page';
import { resultPageTemplate } from '../../scripts/vite-result-page-render';
import { seedMinimal, seededSignIns, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { addressSource, auditEntries } from '../../tests/support/ownership';

const RENDER_ENTRY = fileURLToPath(new URL('../../client/prerender/render-result-page.tsx', import.meta.url));
const indexHtml = `<!doctype html><html lang="pl"><head><title>Portal Pacjentki – Mammografia</title><script>document.documentElement.dataset.theme='default';</script></head>
<body><div id="root"></div><script type="module" crossorigin src="/assets/index-AbC123.js"></script></body></html>`;
const consentCookie = encodeURIComponent(JSON.stringify({ version: 1, choice: 'allow-all', decidedAt: '2026-01-01T00:00:00.000Z' }));

/**
 * A built client as `npm run build` leaves it for the server, with the render entry taken from its
 * source (vitest compiles it as the build would bundle it) or, to see a failure, given outright.
 */
function builtClient(renderer = `export { default } from ${JSON.stringify(RENDER_ENTRY)};`): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-drawn-'));
  writeFileSync(path.join(dir, 'index.html'), indexHtml);
  const drawing = path.join(dir, RESULT_PAGE_BUILD.dir);
  mkdirSync(drawing, { recursive: true });
  writeFileSync(path.join(drawing, RESULT_PAGE_BUILD.template), resultPageTemplate(indexHtml));
  writeFileSync(path.join(drawing, RESULT_PAGE_BUILD.renderer), renderer);
  return dir;
}

/** The answers the page carries for the app, as it reads them. */
function answersIn(html: string): ResultPageAnswers {
  const found = new RegExp(`<script type="application/json" id="${RESULT_PAGE_ANSWERS_ID}">(.*?)</script>`, 's').exec(html);
  if (!found) throw new Error('the page carries no answers');
  return JSON.parse(found[1]!) as ResultPageAnswers;
}

const withConsent = (client: TestClient) => {
  client.cookies.set('portal.cookie-consent', consentCookie);
  return client;
};
const page = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const nextAddress = addressSource('198.51.100');

describe('GET /screening, drawn with her result', () => {
  let app: TestApp;
  let seed: MinimalSeed;
  let signIn: ReturnType<typeof seededSignIns>;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = builtClient();
    app = await startTestApp({ clientDir });
    seed = await seedMinimal(app.db, app.config);
    signIn = seededSignIns(app, seed);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('answers a signed-in result-portal patient her result page, never stored, with the answers the app starts from', async () => {
    const client = withConsent(await signIn.guest());
    const { ip, headers } = nextAddress();
    const response = await client.get('/screening', { headers: { ...page, ...headers } });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toContain('<html data-prerendered lang="pl">');
    expect(response.text).toContain('<title>Wynik badania – Portal Pacjentki</title>');
    expect(response.text).toMatch(/<div id="root" inert>.*Wynik badania.*Maria.*Gość.*<\/div><script type="application\/json"/s);
    const answers = answersIn(response.text);
    expect(answers.user).toMatchObject({ guest: true, screeningId: seed.guest.screeningId });
    expect(answers.banners).toEqual({ 'top-placement': [], 'bottom-placement': [] });
    // Read as the API reads it for her, and audited once, as her one reading of it.
    expect(await auditEntries(app.db, 'RESULT', ip)).toEqual([
      { user_id: null, screening_id: seed.guest.screeningId, description: `screening ${seed.guest.screeningId}` },
    ]);
    const fromApi = await client.get('/api/screening/result');
    expect(answers.result).toEqual(fromApi.body);
  });

  it('keeps the Content-Security-Policy of the plain page', async () => {
    const drawn = await withConsent(await signIn.guest()).get('/screening', { headers: page });
    const plain = await app.client().get('/screening', { headers: page });
    expect(drawn.headers.get('content-security-policy')).toBe(plain.headers.get('content-security-policy'));
  });

  it("draws each patient's own result only", async () => {
    const other = withConsent(app.client());
    await other.loginResult('New2code', '1970-05-06');
    const response = await other.get('/screening', { headers: page });

    expect(answersIn(response.text).result.screening.id).toBe(seed.patient.latestScreeningId);
    expect(response.text).toContain('Testowa');
    expect(response.text).not.toContain('Gość');
  });

  it('escapes her data in the answers, so no text of hers can end their element', async () => {
    await app.db('personal_data').where({ last_name: 'Gość' }).update({ last_name: 'Gość</script><script>alert(1)</script>' });
    try {
      const response = await withConsent(await signIn.guest()).get('/screening', { headers: page });
      expect(response.text).not.toContain('</script><script>alert(1)');
      expect(answersIn(response.text).result.screening.lastName).toBe('Gość</script><script>alert(1)</script>');
    } finally {
      await app.db('personal_data').where({ first_name: 'Maria' }).update({ last_name: 'Gość' });
    }
  });

  it('answers the plain page, read by nobody, to anyone else and to what is not a page view', async () => {
    const plain = async (label: string, request: () => Promise<{ status: number; text: string; headers: Headers }>) => {
      const response = await request();
      expect(response.status, label).toBe(200);
      expect(response.headers.get('cache-control'), label).toBe('no-cache');
      expect(response.text, label).toBe(indexHtml);
    };
    const { ip, headers } = nextAddress();
    const guest = await signIn.guest(headers);
    await plain('no session', () => withConsent(app.client()).get('/screening', { headers: page }));
    await plain('cookie dialog not answered', () => guest.get('/screening', { headers: { ...page, ...headers } }));
    await plain('patient-portal account', async () => withConsent(await signIn.patient()).get('/screening', { headers: page }));
    await plain('signed out', async () => {
      const client = withConsent(await signIn.guest());
      await client.logout();
      return client.get('/screening', { headers: page });
    });
    await plain('another path', () => withConsent(guest).get('/screening/survey', { headers: { ...page, ...headers } }));
    const head = await fetch(`${app.baseUrl}/screening`, {
      method: 'HEAD',
      headers: { cookie: `portal.sid=${guest.sessionCookie}; portal.cookie-consent=${consentCookie}`, ...headers },
    });
    expect(head.headers.get('cache-control')).toBe('no-cache');
    expect(await auditEntries(app.db, 'RESULT', ip)).toEqual([]);
  });
});

describe('GET /screening when the page cannot be drawn', () => {
  let app: TestApp;
  let clientDir: string;
  let seed: MinimalSeed;

  beforeAll(async () => {
    clientDir = builtClient(
      'export default { prepare: async () => {}, cookieDialogAnswered: () => true, render: () => { throw new Error("drawing failed"); } };',
    );
    app = await startTestApp({ clientDir });
    seed = await seedMinimal(app.db, app.config);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('answers the plain page instead of an error, and logs no personal data', async () => {
    const response = await withConsent(await seededSignIns(app, seed).guest()).get('/screening', { headers: page });

    expect(response.status).toBe(200);
    expect(response.text).toBe(indexHtml);
    const log = app.logs.join('\n');
    expect(log).toContain('the result page could not be drawn');
    for (const personal of ['Maria', 'Gość', seed.guest.accessCode, seed.guest.birthAt]) expect(log).not.toContain(personal);
  });
});
