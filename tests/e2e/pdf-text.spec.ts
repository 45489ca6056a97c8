import { expect, test, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { CONTRAST_THEMES, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { en } from './support/catalogs';
import { RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin } from './support/login-forms';
import { skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';
import { keptCount } from './support/device-store';
import { keepCopiesOnDevice, unlockWithPin } from './support/keep-on-device';

/**
 * The text of the description PDFs: pdf.js's text layer over the drawn pages (selectable,
 * searchable, read by screen readers), pages drawn readable on a phone with large text, and the
 * "read as text" view in the portal's own theme, online and from the copy kept on the device.
 */

const TITLE = en['result.documents.descriptionEn'];
/** Words of the English description (server/documents/result-description.ts). */
const REPORT_TITLE = 'Mammography report';
const FINDINGS = 'Findings';
/** A field whose label wraps onto a second line under it in the PDF, its value in the next column. */
const DOSE_LABEL = /^Absorbed dose \(AGD, all views\)$/;
const DOSE_VALUE = /^\d+\.\d{2} mGy$/;
/** A sentence of the demo description's findings (server/demo). */
const FINDING_WORDS = 'Scattered vascular calcifications in both breasts.';
const PHONE_WIDTH = 360;

const viewerOf = (page: Page) => page.getByRole('region', { name: TITLE, exact: true });
const pagesOf = (viewer: Locator) => viewer.getByRole('region', { name: en['result.pdf.pagesLabel'].replace('{title}', TITLE) });
const textOf = (viewer: Locator) => viewer.getByRole('region', { name: en['result.pdf.textLabel'].replace('{title}', TITLE) });
const readAsText = (viewer: Locator) => viewer.getByRole('button', { name: en['result.pdf.readAsText'] });

async function signIn(page: Page, baseURL: string | undefined, preferences: Partial<Preferences> = {}): Promise<void> {
  await startWithPreferences(page, { lang: 'en', ...preferences });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/login');
  await fillResultLogin(page, en, RESULT_CODE);
  await acceptConsents(page, en);
  await page.getByRole('button', { name: en['login.submit'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
}

/** Content Security Policy violations the page reports on its console. */
function cspViolations(page: Page): string[] {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  return blocked;
}

/** The size (px) most of the text layer's characters are set in: the description's body text. */
function bodyTextSize(pages: Locator): Promise<number> {
  return pages.evaluate((region) => {
    const characters = new Map<number, number>();
    for (const span of region.querySelectorAll('.textLayer span:not(.markedContent)')) {
      const length = span.textContent?.trim().length ?? 0;
      if (length === 0) continue;
      const size = Math.round(parseFloat(getComputedStyle(span).fontSize) * 10) / 10;
      characters.set(size, (characters.get(size) ?? 0) + length);
    }
    return [...characters].reduce((best, entry) => (entry[1] > best[1] ? entry : best), [0, 0])[0];
  });
}

/** The computed font sizes (px) of the text layer's spans, smallest first. */
function textLayerFontSizes(pages: Locator): Promise<number[]> {
  return pages.evaluate((region) =>
    [...region.querySelectorAll('.textLayer span:not(.markedContent)')]
      .filter((span) => span.textContent?.trim())
      .map((span) => parseFloat(getComputedStyle(span).fontSize))
      .sort((a, b) => a - b),
  );
}

/**
 * axe's WCAG 2 A and AA findings within `selector`, in each contrast theme (switched in place as
 * the accessibility panel does): the viewer only, so the check is quick and about it alone.
 */
async function axeViolationsWithinInEveryTheme(page: Page, selector: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const theme of CONTRAST_THEMES) {
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
    const { violations } = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa']).analyze();
    found[theme] = violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'default'));
  return found;
}

/**
 * Nothing of the page's content reaches past the screen's right edge, so the page never scrolls
 * sideways for it; only the drawn pages pan, inside their viewer. (The header is the shell's.)
 */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const wider = await page.evaluate(() => {
    const screenWidth = (document.scrollingElement ?? document.documentElement).clientWidth;
    return [...document.querySelectorAll('main, main *')]
      .filter((element) => element.getBoundingClientRect().right > screenWidth + 1 && !element.closest('.pdf-viewer__pages > *'))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
  });
  expect(wider, 'content wider than the screen').toEqual([]);
}

test('the drawn description carries its text, focus moves to it, and it reads as text in every theme', async ({
  page,
  baseURL,
}, testInfo) => {
  // axe in five themes is slow on a shared machine.
  test.setTimeout(120_000);
  const blocked = cspViolations(page);
  await signIn(page, baseURL);
  const viewer = viewerOf(page);
  await viewer.getByRole('button', { name: en['result.pdf.open'] }).click();

  // The button that opened it is gone: focus goes to the document, not back to the page's top.
  const pages = pagesOf(viewer);
  await expect(pages).toBeFocused();

  // pdf.js's text layer: the words are there to select, find and read.
  await expect(pages.getByText(REPORT_TITLE).first()).toBeVisible();
  await expect(pages.getByText(FINDINGS, { exact: true }).first()).toBeAttached();
  const selected = await pages
    .getByText(REPORT_TITLE)
    .first()
    .evaluate((span) => {
      const range = document.createRange();
      range.selectNodeContents(span);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return selection?.toString();
    });
  expect(selected).toBe(REPORT_TITLE);
  // What a screen reader is given: the page's words, not only "Page 1 of 1".
  const spoken = await pages.ariaSnapshot();
  for (const words of [REPORT_TITLE, FINDINGS, 'Katarzyna', 'BI-RADS 2']) expect(spoken).toContain(words);
  // The browser's find (Ctrl+F) searches the text layer's text.
  const found = await page.evaluate((words) => {
    getSelection()?.removeAllRanges();
    const hit = (window as unknown as { find(text: string): boolean }).find(words);
    return hit && Boolean(getSelection()?.anchorNode?.parentElement?.closest('.pdf-viewer__pages .textLayer'));
  }, FINDING_WORDS);
  expect(found, 'found in the text layer').toBe(true);

  await readAsText(viewer).click();
  await expect(readAsText(viewer)).toHaveAttribute('aria-pressed', 'true');
  const text = textOf(viewer);
  await expect(text.getByRole('heading', { level: 4, name: REPORT_TITLE })).toBeVisible();
  await expect(text.getByRole('heading', { level: 4, name: FINDINGS })).toBeVisible();
  await expect(text.getByText(FINDING_WORDS)).toBeVisible();
  // The fields are read as label and value: a wrapped label stays whole, its value with it.
  const dose = text.getByRole('term').filter({ hasText: DOSE_LABEL });
  await expect(dose).toBeVisible();
  expect(await dose.evaluate((term) => term.nextElementSibling?.textContent)).toMatch(DOSE_VALUE);
  await expect(text.getByRole('definition').filter({ hasText: 'Katarzyna Zielińska' })).toBeVisible();
  // The portal's own text size and colours, not the PDF's.
  const [textSize, textColour, bodySize, bodyColour] = await text.evaluate((region) => {
    const paragraph = region.querySelector('p:not([role])') ?? region;
    return [
      getComputedStyle(paragraph).fontSize,
      getComputedStyle(paragraph).color,
      getComputedStyle(document.body).fontSize,
      getComputedStyle(document.body).color,
    ];
  });
  expect([textSize, textColour]).toEqual([bodySize, bodyColour]);
  // The whole page with the drawn pages and their text layer is checked by result.spec.ts.
  expect(await axeViolationsWithinInEveryTheme(page, '.pdf-viewer:has(.pdf-viewer__text)')).toEqual(NO_VIOLATIONS_IN_ANY_THEME);
  await page.screenshot({ path: testInfo.outputPath('desktop-text.png'), fullPage: true });

  await readAsText(viewer).click();
  await expect(pages.getByText(REPORT_TITLE).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('desktop-pages.png'), fullPage: true });
  expect(blocked).toEqual([]);
});

for (const fontScale of [1, 1.6] as const) {
  test.describe(`on a phone ${PHONE_WIDTH} px wide with text at ${fontScale * 100}%`, () => {
    test.use({ viewport: { width: PHONE_WIDTH, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

    test('the page is drawn readable and sharp, pans inside the viewer, and the text view reflows', async ({ page, baseURL }, testInfo) => {
      await signIn(page, baseURL, { fontScale });
      const viewer = viewerOf(page);
      await viewer.getByRole('button', { name: en['result.pdf.open'] }).click();
      const pages = pagesOf(viewer);
      await expect(pages.getByText(REPORT_TITLE).first()).toBeAttached();
      // The description's 10 pt body text at 12 px at the standard text size, growing with it
      // (it was about 4 px, the page shrunk to the phone's width).
      await expect.poll(() => bodyTextSize(pages)).toBeGreaterThanOrEqual(11.9 * fontScale);
      const bodySize = await bodyTextSize(pages);
      expect(bodySize).toBeLessThan(12.1 * fontScale);
      const smallest = (await textLayerFontSizes(pages))[0] ?? 0;
      console.log(`text layer at ${PHONE_WIDTH} px, scale ${fontScale}: body ${bodySize} px, smallest ${smallest} px`);
      expect(smallest).toBeGreaterThanOrEqual(9 * fontScale);

      // Wider than the screen, it pans inside the viewer; the page itself never scrolls sideways.
      const panning = await pages.evaluate((region) => ({ scrollWidth: region.scrollWidth, clientWidth: region.clientWidth }));
      expect(panning.scrollWidth).toBeGreaterThan(panning.clientWidth);
      await expectNoSidewaysScroll(page);
      // Drawn at the screen's two device pixels per CSS pixel (within the canvas size limit).
      const canvas = await pages
        .getByRole('img')
        .first()
        .evaluate((element: HTMLCanvasElement) => ({
          pixels: element.width,
          css: element.getBoundingClientRect().width,
        }));
      expect(canvas.pixels / canvas.css).toBeGreaterThan(1.5);
      await pages.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath('phone-pages.png') });

      await readAsText(viewer).click();
      const text = textOf(viewer);
      await expect(text.getByRole('heading', { name: REPORT_TITLE })).toBeVisible();
      // In the portal's text size: 14 px times the chosen scale.
      const paragraphSize = await text.getByText(FINDING_WORDS).evaluate((paragraph) => parseFloat(getComputedStyle(paragraph).fontSize));
      expect(paragraphSize).toBeCloseTo(14 * fontScale, 1);
      const reflow = await text.evaluate((region) => ({ scrollWidth: region.scrollWidth, clientWidth: region.clientWidth }));
      expect(reflow.scrollWidth).toBeLessThanOrEqual(reflow.clientWidth);
      await expectNoSidewaysScroll(page);
      await text.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath('phone-text.png') });
    });
  });
}

test('offline, the description kept on the device reads as text', async ({ page, context, baseURL }) => {
  await signIn(page, baseURL);
  // Kept only once she chose to keep her results on this device (issue 16), opened with her PIN.
  await keepCopiesOnDevice(page, en);
  await viewerOf(page).getByRole('button', { name: en['result.pdf.open'] }).click();
  await expect(pagesOf(viewerOf(page)).getByText(REPORT_TITLE).first()).toBeAttached();
  await expect.poll(() => keptCount(page, 'documents')).toBeGreaterThanOrEqual(1);
  // The installed app: the service worker answers navigations from its precache.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await unlockWithPin(page, en);
  await expect(page.getByRole('status').filter({ hasText: new RegExp(`^${en['offline.mark'].replace('{date}', '')}`) })).toBeVisible();
  // The kept description opens by itself offline; its text comes from the same kept bytes.
  const viewer = viewerOf(page);
  await expect(pagesOf(viewer).getByText(REPORT_TITLE).first()).toBeAttached();
  await readAsText(viewer).click();
  const text = textOf(viewer);
  await expect(text.getByRole('heading', { level: 4, name: REPORT_TITLE })).toBeVisible();
  await expect(text.getByRole('heading', { level: 4, name: FINDINGS })).toBeVisible();
  await expect(text.getByRole('alert')).toHaveCount(0);
  await context.setOffline(false);
});
