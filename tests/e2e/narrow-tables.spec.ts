import { expect, type Locator, type Page } from '@playwright/test';
import { axeViolations, CONTRAST_THEMES } from './support/axe';
import { catalogs, type Catalog } from './support/catalogs';
import { ANNA } from './support/demo-accounts';
import { submitPortalLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { PREFS_STORAGE_KEY, skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';

/**
 * The screenings, referrals and audit tables fit the screen at every size: on a 360 px phone with
 * the largest text each row is a card that shows every value of the row under its column's name;
 * on a desktop the table fits its box. Reading the lists writes audit entries, which other
 * journeys count: this file runs on a portal of its own.
 */
const test = testOnOwnServer();

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

async function signInAsAnna(page: Page, baseURL: string | undefined, catalog: Catalog, preferences: Partial<Preferences>) {
  await startWithPreferences(page, preferences);
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
}

/** As if chosen in the accessibility panel on an earlier visit: stored, then the page loaded again. */
async function choosePreferences(page: Page, preferences: Preferences) {
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), { key: PREFS_STORAGE_KEY, value: JSON.stringify(preferences) });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', preferences.theme);
}

/** No sideways scrolling, and no element reaching past the right edge; else names the first ones that do. */
async function expectNothingWiderThanTheScreen(page: Page, where: string) {
  const { scrollWidth, innerWidth, wider } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    wider: [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`),
  }));
  expect(wider, `${where}: elements past the right edge`).toEqual([]);
  expect(scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Rows of a table body (the first row holds the column headers). */
function bodyRows(page: Page, table: Locator) {
  return table.getByRole('row').filter({ has: page.getByRole('gridcell') });
}

/** The column name each cell of the row draws before its value (CSS generated text; "none" when it draws none). */
function drawnLabels(row: Locator): Promise<string[]> {
  return row.getByRole('gridcell').evaluateAll((cells) =>
    cells.map((cell) => {
      const content = getComputedStyle(cell, '::before').content;
      return /^"(.*)" \/ ""$/.exec(content)?.[1] ?? content;
    }),
  );
}

/**
 * A row drawn as a card: its cells stacked inside the screen, the date on top, every cell shown
 * with its column's name, and the column headers out of sight (still read by screen readers).
 */
async function expectCard(table: Locator, row: Locator, columns: string[]) {
  const rowBox = await row.boundingBox();
  expect(rowBox?.width ?? Infinity).toBeLessThanOrEqual(PHONE.width);
  await expect(row.getByRole('rowheader')).toBeVisible();
  const cells = row.getByRole('gridcell');
  await expect(cells).toHaveCount(columns.length - 1);
  for (const cell of await cells.all()) {
    await expect(cell).toBeVisible();
    const box = await cell.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
  }
  expect(await drawnLabels(row)).toEqual(columns.slice(1));
  await expect(table.getByRole('columnheader')).toHaveCount(columns.length);
  for (const header of await table.getByRole('columnheader').all()) {
    expect((await header.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  }
}

/** A table in its box: no wider than the box, nothing to scroll, its column headers shown and no card names drawn. */
async function expectTableFits(table: Locator, row: Locator, columns: string[]) {
  const { tableWidth, boxWidth, scrolls } = await table.evaluate((element) => {
    const box = element.parentElement!;
    return { tableWidth: element.getBoundingClientRect().width, boxWidth: box.clientWidth, scrolls: box.scrollWidth > box.clientWidth };
  });
  expect(tableWidth).toBeLessThanOrEqual(boxWidth + 0.5);
  expect(scrolls).toBe(false);
  await expect(table.getByRole('columnheader')).toHaveText(columns);
  for (const header of await table.getByRole('columnheader').all()) await expect(header).toBeVisible();
  expect(await drawnLabels(row)).toEqual(columns.slice(1).map(() => 'none'));
}

/** Every link and button of the table is a touch target of at least 24 x 24 px (WCAG 2.5.8). */
async function expectTouchTargets(table: Locator) {
  const small = await table.locator('a, button').evaluateAll((controls) =>
    controls
      .map((control) => ({ name: control.textContent ?? '', box: control.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ name, box }) => `${name} (${Math.round(box.width)} x ${Math.round(box.height)} px)`),
  );
  expect(small, 'controls smaller than 24 x 24 px').toEqual([]);
}

function screeningColumns(catalog: Catalog): string[] {
  return [
    catalog['result.table.examinedAt'],
    catalog['result.table.descriptionStatus'],
    catalog['result.table.result'],
    catalog['screenings.column.testId'],
    catalog['screenings.column.order'],
    catalog['screenings.column.payment'],
    catalog['screenings.column.shipment'],
    catalog['result.table.absorbedDose'],
  ];
}

function referralColumns(catalog: Catalog): string[] {
  return [catalog['result.table.examinedAt'], catalog['screenings.column.testId'], catalog['referrals.column.document']];
}

function auditColumns(catalog: Catalog): string[] {
  return [catalog['audit.column.date'], catalog['audit.column.type'], catalog['audit.column.description']];
}

test('on a 360 px phone at text size 160%, every list is cards with every value, in every contrast theme', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const catalog = catalogs.pl;
  await page.setViewportSize(PHONE);
  await signInAsAnna(page, baseURL, catalog, { lang: 'pl', fontScale: 1.6 });

  for (const theme of CONTRAST_THEMES) {
    await page.goto('/screenings');
    await choosePreferences(page, { lang: 'pl', theme, fontScale: 1.6 });
    const screenings = page.getByRole('grid', { name: catalog['screenings.table.label'] });
    const rows = bodyRows(page, screenings);
    await expect(rows).toHaveCount(5);
    await expectNothingWiderThanTheScreen(page, `screenings, ${theme}`);
    await expectCard(screenings, rows.first(), screeningColumns(catalog));
    await expectTouchTargets(screenings);
    // The names drawn on the cards, muted, still read in this theme (axe checks their contrast).
    expect(await axeViolations(page), `screenings, ${theme}`).toEqual([]);
    // The newest: being described, nothing ordered yet. Every value of its row is on its card.
    const newest = rows.first();
    await expect(newest.getByRole('rowheader')).toHaveText(/2026/);
    await expect(newest.getByRole('gridcell').nth(0)).toHaveText(catalog['result.status.inProgress']);
    await expect(newest.getByRole('gridcell').nth(1)).toHaveText('—');
    await expect(newest.getByRole('gridcell').nth(2)).toHaveText(/^\d+$/);
    await expect(newest.getByRole('gridcell').nth(3).getByRole('link', { name: catalog['screenings.order.button'] })).toBeVisible();
    await expect(newest.getByRole('gridcell').nth(4)).toHaveText(catalog['screenings.payment.none']);
    await expect(newest.getByRole('gridcell').nth(5)).toHaveText('—');
    await expect(newest.getByRole('gridcell').nth(6)).toContainText('mGy');
    await expect(newest.getByRole('gridcell').nth(6).getByRole('button', { name: catalog['screenings.dose.checkLabel'] })).toBeVisible();
    // One with an order waiting for its payment: payment and shipment status, and why it cannot be ordered again.
    const waiting = rows.filter({ hasText: catalog['screenings.payment.PENDING'] });
    await expect(waiting.getByRole('gridcell').nth(1)).not.toHaveText('—');
    await expect(waiting.getByRole('gridcell').nth(3)).toContainText(catalog['screenings.order.pending']);
    await expect(waiting.getByRole('gridcell').nth(5)).toHaveText(catalog['screenings.shipment.not_applicable']);

    // A selected card shows its documents below, still within the screen.
    await rows.nth(1).getByRole('rowheader').click();
    await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('region', { name: /^Dokumenty badania z/ })).toBeVisible();
    await expectNothingWiderThanTheScreen(page, `screenings with documents, ${theme}`);

    await page.goto('/screenings?tab=referrals');
    const referrals = page.getByRole('grid', { name: catalog['referrals.table.label'] });
    await expect(bodyRows(page, referrals)).toHaveCount(4);
    await expectNothingWiderThanTheScreen(page, `referrals, ${theme}`);
    await expectCard(referrals, bodyRows(page, referrals).first(), referralColumns(catalog));
    expect(await axeViolations(page), `referrals, ${theme}`).toEqual([]);

    await page.goto('/portal/audit');
    const audit = page.getByRole('grid', { name: catalog['audit.table.label'] });
    await expect(bodyRows(page, audit).first()).toBeVisible();
    await expectNothingWiderThanTheScreen(page, `audit, ${theme}`);
    // The newest entry (each round through the lists writes more): its type, and the type with the IP.
    const entry = bodyRows(page, audit).first();
    await expectCard(audit, entry, auditColumns(catalog));
    const typeName = (await entry.getByRole('gridcell').nth(0).textContent()) ?? '';
    expect(Object.entries(catalog).some(([key, text]) => key.startsWith('audit.type.') && text === typeName)).toBe(true);
    await expect(entry.getByRole('gridcell').nth(1)).toHaveText(new RegExp(`^${escapeRegExp(typeName)}, IP \\S+$`));
    expect(await axeViolations(page), `audit, ${theme}`).toEqual([]);
  }
});

test('on a desktop each table fits its box, and turns to cards where large text would not fit', async ({ page, baseURL }) => {
  const catalog = catalogs.pl;
  await page.setViewportSize(DESKTOP);
  await signInAsAnna(page, baseURL, catalog, { lang: 'pl', fontScale: 1 });

  const screenings = page.getByRole('grid', { name: catalog['screenings.table.label'] });
  await expect(bodyRows(page, screenings)).toHaveCount(5);
  await expectTableFits(screenings, bodyRows(page, screenings).first(), screeningColumns(catalog));
  await expectNothingWiderThanTheScreen(page, 'screenings');
  await expectTouchTargets(screenings);
  // Selected, the row stays as wide as before.
  await bodyRows(page, screenings).nth(1).getByRole('rowheader').click();
  await expectTableFits(screenings, bodyRows(page, screenings).first(), screeningColumns(catalog));

  await page.getByRole('tab', { name: catalog['referrals.title'] }).click();
  const referrals = page.getByRole('grid', { name: catalog['referrals.table.label'] });
  await expect(bodyRows(page, referrals)).toHaveCount(4);
  await expectTableFits(referrals, bodyRows(page, referrals).first(), referralColumns(catalog));

  await page.goto('/portal/audit');
  const audit = page.getByRole('grid', { name: catalog['audit.table.label'] });
  await expect(bodyRows(page, audit).first()).toBeVisible();
  await expectTableFits(audit, bodyRows(page, audit).first(), auditColumns(catalog));
  await expectNothingWiderThanTheScreen(page, 'audit');

  // Eight columns at text size 160% need more than the page's width: cards, two or more fields a line.
  await page.goto('/screenings');
  await choosePreferences(page, { lang: 'pl', theme: 'default', fontScale: 1.6 });
  const row = bodyRows(page, screenings).first();
  await expect(row).toBeVisible();
  await expectNothingWiderThanTheScreen(page, 'screenings at 160%');
  expect(await drawnLabels(row)).toEqual(screeningColumns(catalog).slice(1));
  const [status, result] = await row.getByRole('gridcell').all();
  expect((await status!.boundingBox())?.y).toBe((await result!.boundingBox())?.y);
});
