import { expect, test, type Page } from '@playwright/test';
import { pl } from './support/catalogs';
import { answerCookieDialog } from './support/cookie-dialog';

/** The public pages promised to open offline after one visit, with the catalog key of each heading. */
const OFFLINE_PAGES = [
  { path: '/', heading: pl['home.title'] },
  { path: '/faq', heading: pl['faq.title'] },
  { path: '/portal/regulations', heading: pl['regulations.title'] },
  { path: '/portal/consent', heading: pl['privacy.title'] },
  { path: '/copy-of-medical-clerking', heading: pl['copyInfo.title'] },
] as const;

/** Resolves once the service worker is active and controls the page, i.e. precaching is done. */
async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
}

test('the public pages open with the network off after one visit', async ({ page, context }) => {
  await page.goto('/');
  await answerCookieDialog(page, pl);
  await waitForServiceWorkerControl(page);

  await context.setOffline(true);
  try {
    for (const { path, heading } of OFFLINE_PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading }), `offline ${path}`).toBeVisible();
    }
    // The API is never answered from a cache: offline it fails like any network request.
    const apiAnswer = await page.evaluate(() =>
      fetch('/api/user/profile').then(
        (response) => response.status,
        () => 'network error',
      ),
    );
    expect(apiAnswer).toBe('network error');
  } finally {
    await context.setOffline(false);
  }
});

type ManifestIcon = { src: string; sizes: string; type: string; purpose?: string };

test('the portal can be installed as an app', async ({ playwright, launchOptions, baseURL }, testInfo) => {
  // Chromium never offers to install from an incognito profile, which is what a usual test
  // context is; a profile on disk lets it give its real verdict.
  const context = await playwright.chromium.launchPersistentContext(testInfo.outputPath('profile'), { ...launchOptions, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');

    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(manifestHref).toBe('/manifest.webmanifest');
    const manifestResponse = await context.request.get(manifestHref!);
    expect(manifestResponse.ok()).toBe(true);
    const manifest = (await manifestResponse.json()) as {
      name: string;
      lang: string;
      display: string;
      start_url: string;
      icons: ManifestIcon[];
    };
    expect(manifest).toMatchObject({ name: pl['app.name'], lang: 'pl', display: 'standalone', start_url: '/' });

    for (const sizes of ['192x192', '512x512']) {
      for (const purpose of ['any', 'maskable']) {
        const icon = manifest.icons.find((candidate) => candidate.sizes === sizes && candidate.purpose === purpose);
        expect(icon, `${purpose} icon ${sizes}`).toBeDefined();
        const iconResponse = await context.request.get(icon!.src);
        expect(iconResponse.headers()['content-type'], icon!.src).toBe('image/png');
      }
    }

    await waitForServiceWorkerControl(page);
    const workerUrl = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL);
    expect(workerUrl).toMatch(/\/sw\.js$/);

    // Chromium's own verdict: the checks that decide whether it offers "Install app".
    const devtools = await context.newCDPSession(page);
    await expect
      .poll(async () => {
        const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
        return installabilityErrors.map((error) => error.errorId);
      })
      .toEqual([]);
  } finally {
    await context.close();
  }
});
