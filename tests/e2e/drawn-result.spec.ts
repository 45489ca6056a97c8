import { expect, test, type Page, type Route } from '@playwright/test';
import { signInThroughApi } from './support/api-sign-in';
import { en, pl } from './support/catalogs';
import { expectAppStarted } from './support/keyboard';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * The signed-in result page arrives drawn with her result by the server (server/result-page/):
 * she sees it before the app's code has come, and the app takes it over from the answers in the
 * page, asking for none of them again and changing nothing she sees.
 */

// page.route cannot see what a service worker answers, and a first visit has none.
test.use({ serviceWorkers: 'block' });

/** The app's entry module (Vite names it index-<hash>.js); nothing of the app runs before it. */
const APP_ENTRY = /\/assets\/index-[\w-]+\.js$/;

/** Holds every request matching `url` until released, and lists them (path and query). */
async function hold(page: Page, url: RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const seen: string[] = [];
  await page.route(url, async (route: Route) => {
    const { pathname, search } = new URL(route.request().url());
    seen.push(pathname + search);
    await released;
    await route.continue();
  });
  return { seen, release };
}

type Seen = { text: string; parts: string[] };
type Watched = Window & { whatSheSees?: () => Seen; atTakeover?: Seen };

/**
 * Defines, in the page, what she sees of it (its text, and where each part of the result page
 * lies), and keeps that as it is at the app's first render: in the commit that makes the page
 * usable (main.tsx drops `inert`), before anything the app loads later could add to it.
 */
async function watchTakeover(page: Page): Promise<void> {
  await page.evaluate(() => {
    const watched = window as Watched;
    watched.whatSheSees = () => {
      const main = document.querySelector('main')!;
      const parts = [...main.querySelectorAll('h1, table, section.card, .sponsor-banners img, a, button')].map((element) => {
        const { x, y, width, height } = element.getBoundingClientRect();
        return `${element.tagName} ${element.textContent?.trim().slice(0, 30)} ${[x, y, width, height].map(Math.round).join(',')}`;
      });
      return { text: main.innerText, parts };
    };
    const root = document.getElementById('root')!;
    new MutationObserver((_changes, observer) => {
      if (root.hasAttribute('inert')) return;
      observer.disconnect();
      watched.atTakeover = watched.whatSheSees!();
    }).observe(root, { attributes: true, attributeFilter: ['inert'] });
  });
}

test('her result page is drawn before the app runs, and the app takes it over unchanged', async ({ page, context, baseURL }) => {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await skipCookieDialog(context, baseURL);
  await signInThroughApi(page.request, 'guest');
  const app = await hold(page, APP_ENTRY);
  const api = await hold(page, /\/api\//);

  const response = await page.goto('/screening', { waitUntil: 'commit' });
  expect(response?.headers()['cache-control']).toBe('no-store');
  const heading = page.getByRole('heading', { level: 1, name: pl['result.title'] });
  await expect(heading).toBeVisible();
  await expect(page.getByRole('table').getByRole('row', { name: new RegExp(pl['result.table.firstName']) })).toBeVisible();
  await expect(page.locator('#root')).toHaveAttribute('inert');
  await watchTakeover(page);
  const drawn = await page.evaluate(() => (window as Watched).whatSheSees!());

  app.release();
  await expectAppStarted(page);
  await expect(page.locator('html')).not.toHaveAttribute('data-prerendered');
  // The app's first render (and no answer of the server yet could change the page).
  expect(await page.evaluate(() => (window as Watched).atTakeover)).toEqual(drawn);
  // It started from the answers in the page, read once and removed: her session, result and the
  // logos are not asked for again (her result would be read, and audited, twice).
  await expect(page.locator('#result-page-answers')).toHaveCount(0);
  expect(api.seen.filter((url) => /^\/api\/(auth\/session|screening\/result|banners)/.test(url))).toEqual([]);

  // Then the page goes on as the app's own: what it asks after its first render arrives.
  api.release();
  await expect(page.getByRole('region', { name: pl['result.documents.referral'], exact: true })).toBeVisible();
  expect(blocked).toEqual([]);
});

test('in English her page shows only once the app has drawn it in her language', async ({ page, context, baseURL }) => {
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signInThroughApi(page.request, 'guest');
  const app = await hold(page, APP_ENTRY);

  await page.goto('/screening', { waitUntil: 'commit' });
  // The drawn page is Polish: hidden from her until the app has drawn hers.
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('#root')).toBeHidden();
  app.release();
  await expect(page.getByRole('heading', { level: 1, name: en['result.title'] })).toBeVisible();
  await expect(page.getByRole('table').getByRole('row', { name: new RegExp(en['result.table.firstName']) })).toBeVisible();
  await expect(page.getByText(pl['result.title'], { exact: true })).toHaveCount(0);
});
