import { expect, type Locator, type Page } from '@playwright/test';
import { catalogs, type Catalog } from './support/catalogs';
import { axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { ANNA } from './support/demo-accounts';
import { submitPortalLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';

/**
 * Anna's screenings list and referrals (issue 5). Opening documents writes audit entries, which
 * other journeys count: this file runs on a portal of its own.
 */
const test = testOnOwnServer();

async function signInAsAnna(page: Page, baseURL: string | undefined, catalog: Catalog, preferences: Partial<Preferences>) {
  await startWithPreferences(page, preferences);
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
}

/** Rows of a table body (the first row holds the column headers). */
function bodyRows(page: Page, table: Locator) {
  return table.getByRole('row').filter({ has: page.getByRole('gridcell') });
}

function screeningsTable(page: Page, catalog: Catalog) {
  return page.getByRole('grid', { name: catalog['screenings.table.label'] });
}

function pageStatus(catalog: Catalog, page: number, pages: number) {
  return catalog['pagination.status'].replace('{page}', String(page)).replace('{pages}', String(pages));
}

/** Types two days into a date range picker, in the locale's segment order (pl: dd.mm.rrrr, en: mm/dd/yyyy). */
async function chooseDays(page: Page, picker: Locator, lang: 'pl' | 'en', start: string, end: string) {
  const typed = (day: string) => {
    const [year, month, date] = day.split('-');
    return lang === 'pl' ? `${date}${month}${year}` : `${month}${date}${year}`;
  };
  await picker.getByRole('spinbutton').first().click();
  await page.keyboard.type(typed(start) + typed(end));
}

async function openFilters(page: Page, catalog: Catalog) {
  await page.getByRole('button', { name: catalog['screenings.filters.open'], exact: true }).click();
  const dialog = page.getByRole('dialog', { name: catalog['screenings.filters.title'] });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Whether the canvas holds anything but one flat colour (a drawn page has text and lines). */
function canvasHasDrawing(canvas: Locator): Promise<boolean> {
  return canvas.evaluate((element: HTMLCanvasElement) => {
    const context = element.getContext('2d');
    if (!context || element.width === 0) return false;
    const { data } = context.getImageData(0, 0, element.width, element.height);
    for (let index = 4; index < data.length; index += 4) {
      if (data[index] !== data[0] || data[index + 1] !== data[1] || data[index + 2] !== data[2]) return true;
    }
    return false;
  });
}

function firstPageImage(container: Locator, catalog: Catalog) {
  const name = new RegExp(`^${catalog['result.pdf.pageLabel'].replace('{page}', '1').replace('{pages}', '\\d+')}$`);
  return container.getByRole('img', { name });
}

for (const lang of ['pl', 'en'] as const) {
  const catalog = catalogs[lang];

  test(`${lang}: Anna pages through her screenings, filters them and opens a document of one`, async ({ page, baseURL }) => {
    await signInAsAnna(page, baseURL, catalog, { lang });
    await expect(page.getByRole('heading', { level: 1, name: catalog['screenings.title'] })).toBeVisible();
    const table = screeningsTable(page, catalog);
    const rows = bodyRows(page, table);

    // Seven screenings: five on the first page, the newest (still being described) on top.
    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText(catalog['result.status.inProgress']);
    await expect(rows.first()).toContainText(catalog['screenings.payment.none']);
    // The 2025 copy order waits for its payment (nothing to ship yet), so ordering again is disabled there.
    const waiting = rows.filter({ hasText: catalog['screenings.payment.PENDING'] });
    await expect(waiting).toContainText(catalog['screenings.shipment.not_applicable']);
    await expect(waiting.getByRole('link', { name: catalog['screenings.order.button'] })).toHaveAttribute('aria-disabled', 'true');
    await expect(rows.first().getByRole('link', { name: catalog['screenings.order.button'] })).toHaveAttribute(
      'href',
      /^\/order-screening-copy\/\d+$/,
    );

    await page.getByRole('button', { name: catalog['pagination.next'] }).click();
    await expect(rows).toHaveCount(2);
    await expect(page).toHaveURL(/[?&]page=2\b/);
    // The page survives a reload.
    await page.reload();
    await expect(rows).toHaveCount(2);
    await expect(page.getByText(pageStatus(catalog, 2, 2))).toBeVisible();

    // By result: one suspicious change, kept after a reload.
    let dialog = await openFilters(page, catalog);
    await dialog.getByRole('radio', { name: catalog['result.scale.suspicious'] }).press('Space');
    await dialog.getByRole('button', { name: catalog['screenings.filters.apply'] }).click();
    await expect(dialog).toBeHidden();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(catalog['result.scale.suspicious']);
    await expect(page).toHaveURL(/[?&]result=4\b/);
    await page.reload();
    await expect(rows).toHaveCount(1);

    await page.getByRole('button', { name: catalog['screenings.filters.clear'] }).click();
    await expect(rows).toHaveCount(5);

    // By date: the two screenings of 2022.
    dialog = await openFilters(page, catalog);
    await chooseDays(page, dialog.getByRole('group', { name: catalog['screenings.filters.dateRange'] }), lang, '2022-01-01', '2022-12-31');
    await dialog.getByRole('button', { name: catalog['screenings.filters.apply'] }).click();
    await expect(rows).toHaveCount(2);
    await expect(page).toHaveURL(/from=2022-01-01&to=2022-12-31/);

    // Selecting a row shows its documents; the Polish description opens in the viewer.
    const row = rows.first();
    await row.getByRole('rowheader').click();
    await expect(row).toHaveAttribute('aria-selected', 'true');
    const details = page.getByRole('region', { name: new RegExp(`^${catalog['screenings.details.title'].replace('{date}', '')}`) });
    await expect(details.getByRole('link', { name: catalog['screenings.details.resultPage'] })).toHaveAttribute(
      'href',
      /^\/screening\/\d+$/,
    );
    await expect(details.getByRole('link', { name: catalog['result.survey.title'] })).toHaveAttribute('href', /^\/screening\/\d+\/survey$/);
    const viewer = details.getByRole('region', { name: catalog['result.documents.descriptionPl'], exact: true });
    await viewer.getByRole('button', { name: catalog['result.pdf.open'] }).click();
    await expect(firstPageImage(viewer, catalog)).toBeVisible();
    await expect.poll(() => canvasHasDrawing(firstPageImage(viewer, catalog)), { timeout: 10_000 }).toBe(true);

    expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

    // A second click deselects the row and closes its documents.
    await row.getByRole('rowheader').click();
    await expect(row).toHaveAttribute('aria-selected', 'false');
    await expect(details).toBeHidden();
  });

  test(`${lang}: Anna filters her referrals by date and downloads one under its Polish name`, async ({ page, baseURL }) => {
    await signInAsAnna(page, baseURL, catalog, { lang });
    await page.getByRole('tab', { name: catalog['referrals.title'] }).click();
    await expect(page).toHaveURL(/[?&]tab=referrals\b/);
    const table = page.getByRole('grid', { name: catalog['referrals.table.label'] });
    const rows = bodyRows(page, table);
    // A referral for each result of 3, 4, 5 and "needs more checks".
    await expect(rows).toHaveCount(4);

    await chooseDays(page, page.getByRole('group', { name: catalog['screenings.filters.dateRange'] }), lang, '2022-03-08', '2022-04-12');
    await expect(rows).toHaveCount(2);

    await rows.first().getByRole('rowheader').click();
    const viewer = page.getByRole('region', { name: new RegExp(`^${catalog['referrals.viewer.title'].replace('{date}', '')}`) });
    await expect(firstPageImage(viewer, catalog)).toBeVisible();
    await expect.poll(() => canvasHasDrawing(firstPageImage(viewer, catalog)), { timeout: 10_000 }).toBe(true);

    const download = page.waitForEvent('download');
    await viewer.getByRole('button', { name: catalog['result.pdf.download'] }).click();
    expect((await download).suggestedFilename()).toBe('skierowanie-2022-04-12.pdf');

    await page.getByRole('button', { name: catalog['referrals.clear'] }).click();
    await expect(rows).toHaveCount(4);
    await expect(viewer).toBeHidden();

    // The referral route shows the same screen.
    await page.goto('/referral');
    await expect(page.getByRole('heading', { level: 1, name: catalog['referrals.title'] })).toBeVisible();
    await expect(rows).toHaveCount(4);
  });
}

test('a keyboard alone selects a row, moves to another and deselects it', async ({ page, baseURL }) => {
  const catalog = catalogs.en;
  await signInAsAnna(page, baseURL, catalog, { lang: 'en' });
  const table = screeningsTable(page, catalog);
  const rows = bodyRows(page, table);
  await expect(rows).toHaveCount(5);

  await page.getByRole('button', { name: catalog['screenings.filters.open'], exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('Space');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByRole('region', { name: /^Documents of the screening of/ })).toBeVisible();

  await page.keyboard.press('Space');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByRole('region', { name: /^Documents of the screening of/ })).toBeHidden();
});

test('the list fits a 360 px phone at text size 160% in the strongest contrast theme', async ({ page, baseURL }) => {
  const catalog = catalogs.pl;
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAsAnna(page, baseURL, catalog, { lang: 'pl', fontScale: 1.6, theme: 'black-pink' });
  const rows = bodyRows(page, screeningsTable(page, catalog));
  await expect(rows).toHaveCount(5);
  await rows.nth(2).getByRole('rowheader').click();
  await expect(page.getByRole('region', { name: /^Dokumenty badania z/ })).toBeVisible();

  // Each screening is a card: neither the page nor the table scrolls sideways (narrow-tables.spec.ts checks every element).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);

  await openFilters(page, catalog);
  const popoverOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(popoverOverflow).toBeLessThanOrEqual(0);
});
