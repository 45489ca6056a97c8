import type { BrowserContext, Page } from '@playwright/test';
import pl from '../client/i18n/pl.json' with { type: 'json' };
import { DEVICE_PIN, keepCopiesOnDevice, pinPrompt } from '../tests/e2e/support/keep-on-device';

/**
 * The demo result-portal patient of the browser budgets (db/seeds/demo.ts), in the portal's
 * default language, and the steps that bring her browser to the measured states.
 */
const ACCESS_CODE = 'Xk7mP2qa';
const BIRTH_DATE = '1968-04-12';

/** The viewer whose first page the offline budget is about: the English description. */
const DESCRIPTION = { title: pl['result.documents.descriptionEn'], openLabel: pl['result.pdf.open'] };
/** PdfViewer marks the moment its first page is drawn (User Timing, from navigation start). */
export const FIRST_PAGE_MARK = 'pdf-first-page-rendered';

/**
 * Signs in through the API, as the login form would, so the next navigation is the result page
 * itself with nothing of the portal in the browser's caches yet. The consent cookie stands for
 * the cookie dialog answered on the login page.
 */
export async function signIn(context: BrowserContext, base: string): Promise<void> {
  const consent = JSON.stringify({ version: 1, choice: 'allow-all', decidedAt: new Date().toISOString() });
  await context.addCookies([{ name: 'portal.cookie-consent', value: encodeURIComponent(consent), url: base }]);
  const csrf = await context.request.get(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await context.request.post(`${base}/api/auth/login`, {
    headers: { 'X-CSRF-Token': csrfToken },
    data: { accessCode: ACCESS_CODE, birthAt: BIRTH_DATE, portalTerms: true, policyTerms: true },
  });
  if (!login.ok()) throw new Error(`demo result login failed: ${login.status()}`);
}

export async function waitForResult(page: Page): Promise<void> {
  await page.getByTestId('result-wording').waitFor({ timeout: 90_000 });
}

function firstPageRendered(page: Page): Promise<unknown> {
  return page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_PAGE_MARK, { timeout: 60_000 });
}

function keptDocuments(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('portal');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('documents')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('documents').objectStore('documents').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
        };
      }),
  );
}

/**
 * The installed app seen once: the service worker controls the page (its precache holds the app),
 * she switched on keeping her results on the device with her PIN, and the description was opened,
 * so the device keeps it (encrypted). Call on the loaded result page.
 */
export async function makeInstalledAppWithOfflineCopy(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
  await keepCopiesOnDevice(page, pl);
  const viewer = page.getByRole('region', { name: DESCRIPTION.title, exact: true });
  await viewer.getByRole('button', { name: DESCRIPTION.openLabel, exact: true }).click();
  await firstPageRendered(page);
  const deadline = Date.now() + 30_000;
  while ((await keptDocuments(page)) === 0) {
    if (Date.now() > deadline) throw new Error('the description was not kept on the device');
    await page.waitForTimeout(200);
  }
}

/**
 * Offline, her kept copies open only with her device PIN (issue 16): the page asks first. Answers
 * the page's clock (performance.now) at the moment the PIN is sent.
 */
export async function unlockKeptCopies(page: Page): Promise<number> {
  await pinPrompt(page, pl).waitFor({ timeout: 60_000 });
  await page.getByLabel(pl['offline.unlock.pin'], { exact: true }).fill(DEVICE_PIN);
  const submit = page.getByRole('button', { name: pl['offline.unlock.submit'] });
  await submit.focus();
  const sentAt = await page.evaluate(() => performance.now());
  await submit.press('Enter');
  return sentAt;
}

/** Offline, the page says it shows a copy from the device; without it the figures would be the network's. */
export async function assertOfflineCopyShown(page: Page): Promise<void> {
  await page.locator('.offline-mark').waitFor({ timeout: 60_000 });
}
