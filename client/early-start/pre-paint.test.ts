import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import type { SessionUser } from '@common/types/session';
import { describe, expect, it } from 'vitest';
import { earlyStartScript } from '../../scripts/vite-early-start';
import { decideNavigation } from '../routes/decide-navigation';

/**
 * The pre-paint script runs here as the build writes it into index.html (compiled, minified, with
 * the built files' URLs), against a minimal browser, the way the browser would run it.
 */
async function runWith(stored: string | null | Error) {
  const properties = new Map<string, string>();
  const attributes = new Map<string, string>();
  const documentElement = {
    lang: 'pl',
    hasAttribute: (name: string) => attributes.has(name),
    setAttribute: (name: string, value: string) => attributes.set(name, value),
    style: { setProperty: (name: string, value: string) => properties.set(name, value) },
  };
  const document = { documentElement, title: 'Portal Pacjentki – Mammografia' };
  const localStorage = {
    getItem: () => {
      if (stored instanceof Error) throw stored;
      return stored;
    },
  };
  runInNewContext(await earlyStartScript({}), { document, localStorage, location: { pathname: '/' } });
  return { lang: documentElement.lang, theme: attributes.get('data-theme'), scale: properties.get('--font-scale'), title: document.title };
}

describe('the pre-paint script: preferences before the first paint', () => {
  it('has the place for the script and links the manifest', () => {
    const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
    expect(html).toContain('<script data-early-start></script>');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('name="theme-color"');
  });

  it('applies the stored language, contrast theme and font scale', async () => {
    expect(await runWith('{"lang":"en","theme":"white-black","fontScale":1.4}')).toEqual({
      lang: 'en',
      theme: 'white-black',
      scale: '1.4',
      title: 'Patient Portal – Mammography',
    });
  });

  it('uses the defaults with nothing stored, a broken entry or blocked storage', async () => {
    const defaults = { lang: 'pl', theme: 'default', scale: '1', title: 'Portal Pacjentki – Mammografia' };
    expect(await runWith(null)).toEqual(defaults);
    expect(await runWith('{broken')).toEqual(defaults);
    expect(await runWith('42')).toEqual(defaults);
    expect(await runWith(new Error('SecurityError'))).toEqual(defaults);
    expect(await runWith('{"lang":"fr","theme":"neon","fontScale":3}')).toEqual(defaults);
  });
});

const URLS = { pdfWorker: '/assets/pdf.worker.min-X.mjs', resultPage: '/assets/ResultPage-Y.js' };

/** `drawn`: the server drew the page with her result (server/result-page/). */
type Device = { path: string; onLine: boolean; installed?: boolean; user?: object | null; drawn?: boolean };
type Answer = { ok: boolean; clone(): { json(): Promise<unknown> } };

const answer = (ok: boolean, body: unknown): Answer => ({ ok, clone: () => ({ json: async () => body }) });
const GUEST: SessionUser = {
  id: null,
  guest: true,
  email: null,
  personalDataId: null,
  requirePasswordChange: false,
  personalData: null,
  screeningId: 4,
};
const PATIENT: SessionUser = { ...GUEST, id: 7, guest: false, email: 'anna@example.com', personalDataId: 3, screeningId: null };
const BANNERS = [{ imageUrl: '/banners/a.svg' }, { imageUrl: '/banners/b.svg' }];

async function startedOn({ path, onLine, installed = true, user = GUEST, drawn = false }: Device) {
  const workers: Array<{ url: string; options: unknown }> = [];
  const requests: string[] = [];
  const links: Array<Record<string, string>> = [];
  const images: Array<Record<string, string>> = [];
  const fetch = async (url: string, init: unknown) => {
    expect(init).toEqual({ headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    requests.push(url);
    if (url === '/api/auth/session') return answer(true, { user: user ?? null });
    return answer(true, url.includes('top-placement') ? BANNERS : {});
  };
  const window: { portalPdfWorker?: unknown; portalEarlyRequests?: Record<string, Promise<unknown>>; fetch: typeof fetch } = { fetch };
  runInNewContext(await earlyStartScript(URLS), {
    fetch,
    Promise,
    Array,
    document: {
      documentElement: {
        hasAttribute: (name: string) => drawn && name === 'data-prerendered',
        setAttribute() {},
        style: { setProperty() {} },
      },
      head: { appendChild: (link: Record<string, string>) => links.push(link) },
      createElement: () => ({}),
    },
    localStorage: { getItem: () => null },
    location: { pathname: path },
    // No Paint Timing here: what waits for the first paint runs at its fallback, at once.
    setTimeout: (then: () => void) => then(),
    navigator: { onLine, serviceWorker: installed ? { controller: {} } : undefined },
    window,
    Image: function Image(this: Record<string, string>) {
      images.push(this);
    },
    Worker: function Worker(this: object, url: string, options: unknown) {
      workers.push({ url, options });
    },
  });
  await Promise.all(Object.values(window.portalEarlyRequests ?? {}));
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(window.portalPdfWorker !== undefined).toBe(workers.length > 0);
  return { workers, requests, links, images, early: window.portalEarlyRequests ?? {} };
}

describe('the pre-paint script: the result page before the app', () => {
  it('offline in the installed app starts the PDF engine, and sends nothing', async () => {
    const offline = await startedOn({ path: '/screening', onLine: false });
    expect(offline.workers).toEqual([{ url: URLS.pdfWorker, options: { type: 'module' } }]);
    expect(offline.requests).toEqual([]);
    expect((await startedOn({ path: '/screening/12', onLine: false })).workers).toHaveLength(1);
    // Not installed, the worker's code would come over the network.
    expect((await startedOn({ path: '/screening', onLine: false, installed: false })).workers).toEqual([]);
  });

  it("online preloads the page's code and sends its first requests, the guest's result included", async () => {
    const online = await startedOn({ path: '/screening', onLine: true });
    expect(online.workers).toEqual([]);
    expect(online.links).toEqual([{ rel: 'modulepreload', href: URLS.resultPage, crossOrigin: 'anonymous' }]);
    // Her profile first: her screening and result wait for it.
    expect(online.requests).toEqual(['/api/auth/session', '/api/banners?type=top-placement', '/api/screening', '/api/screening/result']);
    // The top sponsor logos download at once, first.
    expect(online.images).toEqual([
      { fetchPriority: 'high', src: '/banners/a.svg' },
      { fetchPriority: 'high', src: '/banners/b.svg' },
    ]);
  });

  it('on a page the server drew with her result sends nothing, and preloads the code after the first paint', async () => {
    const drawn = await startedOn({ path: '/screening', onLine: true, drawn: true });
    expect(drawn.requests).toEqual([]);
    expect(drawn.images).toEqual([]);
    expect(drawn.early).toEqual({});
    expect(drawn.links).toEqual([{ rel: 'modulepreload', href: URLS.resultPage, crossOrigin: 'anonymous' }]);
  });

  it("asks for a patient's screening by the page's id", async () => {
    const patient = await startedOn({ path: '/screening/12', onLine: true, user: PATIENT });
    expect(patient.requests.slice(-2)).toEqual(['/api/screening?id=12', '/api/screening/result?id=12']);
    // In any letter case, as wouter shows the page (client/routes/paths.ts).
    const shouted = await startedOn({ path: '/SCREENING/12/', onLine: true, user: PATIENT });
    expect(shouted.requests.slice(-2)).toEqual(['/api/screening?id=12', '/api/screening/result?id=12']);
  });

  it('never reads a result the guard would not show: each read is an audited entry', async () => {
    const notHers = [
      { path: '/screening', onLine: true, user: null }, // signed out
      { path: '/screening', onLine: true, user: PATIENT }, // a patient is sent to her list
      { path: '/screening/12', onLine: true, user: GUEST }, // a guest is sent to her own page
      { path: '/screening', onLine: true, user: { ...GUEST, requirePasswordChange: true } },
    ];
    for (const device of notHers) {
      const { requests, early } = await startedOn(device);
      expect(requests.filter((url) => url.startsWith('/api/screening'))).toEqual([]);
      // The app finds them answered "not sent" and decides itself.
      const screeningRequests = Object.entries(early).filter(([url]) => url.startsWith('/api/screening'));
      expect(await Promise.all(screeningRequests.map(([, request]) => request))).toEqual([null, null]);
    }
  });

  it('starts nothing on other pages, or on an id the app would read differently', async () => {
    for (const path of ['/screenings', '/screening/survey', '/screening/012', '/login', '/']) {
      const started = await startedOn({ path, onLine: true });
      expect([started.workers, started.requests, started.links]).toEqual([[], [], []]);
    }
  });

  it('reads a result exactly when the route guard will show it (client/routes/decide-navigation.ts)', async () => {
    const users = [
      GUEST,
      PATIENT,
      { ...GUEST, guest: false },
      { ...GUEST, requirePasswordChange: true },
      { ...PATIENT, requirePasswordChange: true },
    ];
    for (const user of users) {
      for (const path of ['/screening', '/screening/12']) {
        const { requests } = await startedOn({ path, onLine: true, user });
        const shown = decideNavigation(path, { status: 'signedIn', user }).kind === 'render';
        expect(
          requests.some((url) => url.startsWith('/api/screening/result')),
          `${path} for ${JSON.stringify(user)}`,
        ).toBe(shown);
      }
    }
  });
});

describe('the pre-paint script: a page drawn at build time (scripts/vite-prerender.ts)', () => {
  async function runOn({ cookie, drawnAtBuild }: { cookie: string; drawnAtBuild: boolean }) {
    const attributes = new Set(drawnAtBuild ? ['data-prerendered'] : []);
    const links: Array<Record<string, string>> = [];
    const paintObservers: Array<(list: unknown, observer: unknown) => void> = [];
    runInNewContext(await earlyStartScript({ catalogs: { pl: '/assets/pl.js' } }), {
      document: {
        cookie,
        documentElement: {
          hasAttribute: (name: string) => attributes.has(name),
          setAttribute: (name: string) => attributes.add(name),
          style: { setProperty() {} },
        },
        head: { appendChild: (link: Record<string, string>) => links.push(link) },
        createElement: () => ({}),
      },
      localStorage: { getItem: () => null },
      location: { pathname: '/' },
      PerformanceObserver: function PerformanceObserver(callback: (list: unknown, observer: unknown) => void) {
        paintObservers.push(callback);
        return { observe() {} };
      },
      setTimeout,
    });
    const linksBeforePaint = [...links];
    const firstContentfulPaint = { getEntriesByName: (name: string) => (name === 'first-contentful-paint' ? [{}] : []) };
    paintObservers.forEach((callback) => callback(firstContentfulPaint, { disconnect() {} }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    return { cookieDialogShown: attributes.has('data-cookie-consent-pending'), linksBeforePaint, links };
  }

  it('shows the cookie dialog drawn into the page only to a visitor without a consent cookie', async () => {
    expect((await runOn({ cookie: '', drawnAtBuild: true })).cookieDialogShown).toBe(true);
    expect((await runOn({ cookie: 'portal.csrf=x', drawnAtBuild: true })).cookieDialogShown).toBe(true);
    expect((await runOn({ cookie: 'portal.csrf=x; portal.cookie-consent=%7B%7D', drawnAtBuild: true })).cookieDialogShown).toBe(false);
  });

  it('preloads the catalog after the first contentful paint of a drawn page, at once otherwise', async () => {
    const catalog = { rel: 'modulepreload', crossOrigin: 'anonymous', href: '/assets/pl.js' };
    const drawn = await runOn({ cookie: '', drawnAtBuild: true });
    expect(drawn.linksBeforePaint).toEqual([]);
    expect(drawn.links).toEqual([catalog]);
    expect((await runOn({ cookie: '', drawnAtBuild: false })).linksBeforePaint).toEqual([catalog]);
  });
});
