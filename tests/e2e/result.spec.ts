import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { en } from './support/catalogs';
import { RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { canvasHasDrawing } from './support/pdf-canvas';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * The result-portal patient's journey through her result page and the survey. Sending the survey
 * changes the demo screening for good, so this file runs on a portal of its own.
 */
const test = testOnOwnServer();

async function signInToResult(page: Page, baseURL: string | undefined): Promise<void> {
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/login');
  await fillResultLogin(page, en, RESULT_CODE);
  await acceptConsents(page, en);
  await page.getByRole('button', { name: en['login.submit'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
}

test('the result-portal patient reads her result, opens and downloads the description', async ({ page, baseURL }) => {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await signInToResult(page, baseURL);
  await expect(page.getByRole('heading', { level: 1, name: en['result.title'] })).toBeVisible();

  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: new RegExp(en['result.table.examinedAt']) })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(`${en['result.table.absorbedDose']} .* mGy`) })).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);

  const viewer = page.getByRole('region', { name: en['result.documents.descriptionEn'], exact: true });
  await viewer.getByRole('button', { name: en['result.pdf.open'] }).click();
  const firstPage = new RegExp(`^${en['result.pdf.pageLabel'].replace('{page}', '1').replace('{pages}', '\\d+')}$`);
  await expect(viewer.getByRole('img', { name: firstPage })).toBeVisible();
  await expect.poll(() => canvasHasDrawing(page, firstPage), { timeout: 10_000 }).toBe(true);

  // The pages scroll inside the viewer, never higher than 512 px.
  const pages = viewer.getByRole('region', { name: en['result.pdf.pagesLabel'].replace('{title}', en['result.documents.descriptionEn']) });
  expect((await pages.boundingBox())?.height).toBeLessThanOrEqual(512);

  // In every contrast theme, with a drawn page and the sponsor logos on screen.
  expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: en['result.pdf.download'] }).click();
  expect((await download).suggestedFilename()).toMatch(/^screening-description-\d{4}-\d{2}-\d{2}-EN\.pdf$/);
  // The PDF engine and its worker run under the portal's CSP (no eval, no foreign scripts).
  expect(blocked).toEqual([]);
  // Its WebAssembly image decoders (JPEG 2000, JBIG2) come from the portal's own origin.
  const { version } = JSON.parse(await readFile('node_modules/pdfjs-dist/package.json', 'utf8')) as { version: string };
  const decoder = await page.request.get(`/assets/pdfjs-${version}/wasm/openjpeg.wasm`);
  expect([decoder.status(), decoder.headers()['content-type']]).toEqual([200, 'application/wasm']);
});

test('opened afresh, the page asks who is signed in and for her result once each, and shows them', async ({ page, baseURL }) => {
  await signInToResult(page, baseURL);
  // A new tab: the app loads from the start, and index.html sends the page's first requests
  // before the app's code has loaded; the app must take them over, not send them again (each
  // read of a result is an audited entry). With the cookie dialog unanswered the server sends
  // index.html itself rather than the page drawn with her result, which asks for none of them
  // (drawn-result.spec.ts).
  await page.context().clearCookies({ name: 'portal.cookie-consent' });
  const fresh = await page.context().newPage();
  const asked: string[] = [];
  fresh.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname.startsWith('/api/')) asked.push(`${request.method()} ${pathname}${search}`);
  });
  await fresh.goto('/screening');
  await expect(fresh.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  await expect(fresh.getByRole('complementary', { name: en['result.sponsors.top'] }).getByRole('img').first()).toBeVisible();
  for (const request of [
    'GET /api/auth/session',
    'GET /api/screening',
    'GET /api/screening/result',
    'GET /api/banners?type=top-placement',
  ]) {
    expect(
      asked.filter((url) => url === request),
      request,
    ).toHaveLength(1);
  }
  expect(
    await fresh.evaluate(() => Object.keys((window as { portalEarlyRequests?: object }).portalEarlyRequests ?? { none: true })),
  ).toEqual([]);
  await fresh.close();
});

test('the patient requests the ISO disc image, waits for it and downloads it', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signInToResult(page, baseURL);
  const iso = page.getByRole('region', { name: en['result.iso.title'] });
  // Keyboard only: focus the button and press Enter.
  await iso.getByRole('button', { name: en['result.iso.generate'] }).focus();
  await page.keyboard.press('Enter');
  await expect(iso.getByText(en['result.iso.accepted'])).toBeVisible();

  const button = iso.getByRole('button', { name: en['result.iso.download'] });
  await expect(button).toBeVisible({ timeout: 90_000 });
  const download = page.waitForEvent('download');
  await button.focus();
  await page.keyboard.press('Enter');
  const iso9660 = await download;
  expect(iso9660.suggestedFilename()).toMatch(/^mammografia-\d{4}-\d{2}-\d{2}\.iso$/);
  // A whole ISO 9660 image: the primary volume descriptor at sector 16.
  const bytes = await readFile(await iso9660.path());
  expect(bytes.subarray(32769, 32774).toString('latin1')).toBe('CD001');
  await expect(iso.getByRole('alert')).toHaveCount(0);
});

test('the patient sends the survey and then sees it read-only', async ({ page, baseURL }) => {
  await signInToResult(page, baseURL);
  await page.getByRole('link', { name: en['result.survey.fill'] }).click();
  await expect(page).toHaveURL(/\/screening\/survey$/);

  const accessQuestion = page.getByRole('slider', { name: en['survey.question.screeningAccess'] });
  await accessQuestion.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText(en['survey.quality.veryGood'], { exact: true }).first()).toBeVisible();

  // Eight questions: seven sliders and the yes/no gate; question 8 waits for a yes.
  await expect(page.getByRole('slider')).toHaveCount(7);
  await expect(page.getByRole('slider', { name: en['survey.question.painMeasure'] })).toBeEnabled();
  const pain = page.getByRole('slider', { name: en['survey.question.longTermPainLevel'] });
  await expect(pain).toBeDisabled();
  await page.getByRole('radio', { name: en['survey.yes'] }).press('Space');
  await expect(pain).toBeEnabled();

  await page.getByRole('button', { name: en['survey.send'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
  await expect(page.getByText(en['result.survey.alreadySent'])).toBeVisible();

  await page.goto('/screening/survey');
  await expect(page.getByText(new RegExp(`^${en['survey.sentOn'].replace('{date}', '')}`))).toBeVisible();
  await expect(page.getByRole('slider')).toHaveCount(0);
  await page.getByRole('button', { name: en['survey.goBack'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
});

test('the result page fits a 360 px phone in the strongest contrast theme and the largest font', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await startWithPreferences(page, { lang: 'en', theme: 'black-pink', fontScale: 1.6 });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/login');
  await fillResultLogin(page, en, RESULT_CODE);
  await acceptConsents(page, en);
  await page.getByRole('button', { name: en['login.submit'] }).click();
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
});
