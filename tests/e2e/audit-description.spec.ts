import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DICOM_CORPUS_DIR } from '../support/dicom-corpus';
import { catalogs, type Catalog } from './support/catalogs';
import { ANNA } from './support/demo-accounts';
import { submitPortalLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * The audit page's description filter finds what the description column shows: the entry type's
 * name in the page's language and the IP address. Anna uploads an image for a DICOM entry, which
 * stays in her account: this file runs on a portal of its own.
 */
const test = testOnOwnServer();

async function signInAsAnna(page: Page, baseURL: string | undefined, catalog: Catalog, lang: 'pl' | 'en') {
  await startWithPreferences(page, { lang });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
}

/** One real DICOM file through `POST /api/dicom`, in the browser's session: a DICOM_UPLOAD entry in her log. */
async function uploadOneImage(page: Page) {
  const { csrfToken } = (await (await page.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await page.request.post('/api/dicom', {
    headers: { 'X-CSRF-Token': csrfToken },
    multipart: {
      dicoms: { name: 'CT_small.dcm', mimeType: 'application/dicom', buffer: readFileSync(path.join(DICOM_CORPUS_DIR, 'CT_small.dcm')) },
    },
  });
  expect(response.status()).toBe(200);
}

function auditGrid(page: Page, catalog: Catalog) {
  return page.getByRole('grid', { name: catalog['audit.table.label'] });
}

function entryRows(page: Page, catalog: Catalog) {
  return auditGrid(page, catalog)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') });
}

/** Types into the description filter and waits for the list it asks for (the URL follows once typing pauses). */
async function filterBy(page: Page, catalog: Catalog, text: string) {
  await page.getByRole('searchbox', { name: catalog['audit.filters.description'] }).fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('description') ?? '').toBe(text.trim());
  await expect(auditGrid(page, catalog)).not.toHaveAttribute('aria-busy', 'true');
}

/** Every row found shows the text in its description column (in any case), and there is at least one. */
async function expectEveryDescriptionContains(page: Page, catalog: Catalog, text: string) {
  await expect(entryRows(page, catalog).first()).toBeVisible();
  const descriptions = await entryRows(page, catalog).evaluateAll((rows) =>
    rows.map((row) => row.querySelectorAll('[role=gridcell]')[1]?.textContent ?? ''),
  );
  for (const description of descriptions) expect(description.toLowerCase()).toContain(text.toLowerCase());
}

test('pl: typing DICOM finds the upload, and a description as shown finds its entries', async ({ page, baseURL }) => {
  const catalog = catalogs.pl;
  await signInAsAnna(page, baseURL, catalog, 'pl');
  await uploadOneImage(page);
  await page.goto('/portal/audit');
  const rows = entryRows(page, catalog);
  await expect(rows.first()).toBeVisible();

  await filterBy(page, catalog, 'DICOM');
  await expectEveryDescriptionContains(page, catalog, 'DICOM');
  await expect(rows.first().getByRole('gridcell').nth(0)).toHaveText(catalog['audit.type.DICOM_UPLOAD']);

  // The whole description of her login as the page shows it, name and IP address.
  await filterBy(page, catalog, '');
  const shown =
    (await rows.filter({ hasText: catalog['audit.type.LOGIN_PORTAL'] }).first().getByRole('gridcell').nth(1).textContent()) ?? '';
  expect(shown).toMatch(new RegExp(`^${catalog['audit.type.LOGIN_PORTAL']}, IP \\S+$`));
  await filterBy(page, catalog, shown);
  await expectEveryDescriptionContains(page, catalog, shown);

  // From the end of the name into the address: "pacjentki, IP 1".
  const across = shown.slice(shown.lastIndexOf(' ', shown.indexOf(', IP ') - 1) + 1, shown.indexOf(', IP ') + 6);
  expect(across).toMatch(/^\S+, IP \S$/);
  await filterBy(page, catalog, across);
  await expectEveryDescriptionContains(page, catalog, across);

  // Text of no description: none found.
  await filterBy(page, catalog, 'IP zzz');
  await expect(page.getByText(catalog['audit.empty'])).toBeVisible();
});

test('en: the filter reads the names in English, the language of the page', async ({ page, baseURL }) => {
  const catalog = catalogs.en;
  await signInAsAnna(page, baseURL, catalog, 'en');
  await uploadOneImage(page);
  await page.goto('/portal/audit');
  await expect(entryRows(page, catalog).first()).toBeVisible();

  await filterBy(page, catalog, 'dicom images');
  await expectEveryDescriptionContains(page, catalog, 'dicom images');
  await expect(entryRows(page, catalog).first().getByRole('gridcell').nth(1)).toHaveText(
    new RegExp(`^${catalog['audit.type.DICOM_UPLOAD']}, IP \\S+$`),
  );

  await filterBy(page, catalog, catalogs.pl['audit.type.DICOM_UPLOAD']);
  await expect(page.getByText(catalog['audit.empty'])).toBeVisible();
});
