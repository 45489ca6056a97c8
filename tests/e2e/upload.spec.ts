import { expect, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DICOM_CORPUS_DIR } from '../support/dicom-corpus';
import { en, pl, type Catalog } from './support/catalogs';
import { axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { ANNA } from './support/demo-accounts';
import { submitPortalLogin, userMenuButton } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';

/**
 * DICOM upload (issues 5 and 15): Anna sends a disc's folder, single files and dropped files;
 * picking starts the upload. The images stay in her account, so this file runs on a portal of its
 * own. Cut connections, reloads and refusals: resumable-upload.spec.ts.
 */
const test = testOnOwnServer();

/** The real DICOM files in the repository (their README says what each one is). */
const corpus = `${DICOM_CORPUS_DIR}/`;
/** 83 files in folders as on a disc, each with the marker; two of them are DICOMDIRs. */
const DISC_FOLDER = path.join(DICOM_CORPUS_DIR, 'dicomdirtests');
const DISC_FILES = 83;

async function openUploadPage(page: Page, catalog: Catalog, baseURL: string | undefined, preferences: Partial<Preferences> = {}) {
  await startWithPreferences(page, { lang: catalog === en ? 'en' : 'pl', ...preferences });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
  await userMenuButton(page, catalog).click();
  await page.getByRole('menuitem', { name: catalog['userMenu.uploadScreenings'] }).click();
  await expect(page).toHaveURL(/\/portal\/upload-screenings$/);
  await expect(page.getByRole('heading', { level: 1, name: catalog['upload.title'] })).toBeVisible();
}

/** The page needs no sideways scrolling; else the test names the first elements past the right edge. */
async function expectNoSidewaysScrolling(page: Page) {
  const { overflow, wider } = await page.evaluate(() => {
    const root = document.documentElement;
    const elements = [...document.querySelectorAll('body *')].filter(
      (element) => element.getBoundingClientRect().right > root.clientWidth + 1,
    );
    return {
      overflow: root.scrollWidth - root.clientWidth,
      wider: elements.slice(0, 5).map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    };
  });
  expect(overflow, `wider than the screen: ${wider.join(', ')}`).toBeLessThanOrEqual(0);
}

/** A catalog message with its ICU parts replaced by "anything", for `toHaveText`. */
function pattern(message: string): RegExp {
  const escaped = message.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(escaped.replace(/\{[^{}]*\}/g, '.+').replace(/[{}]/g, ''));
}

function uploadedStudies(page: Page, catalog: Catalog): Locator {
  return page.getByRole('grid', { name: catalog['upload.studies.title'] });
}

/** Drops files on the zone as a desktop browser would, with a DataTransfer made in the page. */
async function dropFiles(page: Page, names: string[]) {
  const files = names.map((name) => ({ name, bytes: [...readFileSync(`${corpus}${name}`)] }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const { name, bytes } of list) transfer.items.add(new File([new Uint8Array(bytes)], name));
    return transfer;
  }, files);
  const zone = page.locator('.upload-drop');
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}

function report(page: Page, catalog: Catalog): Locator {
  return page.getByRole('region', { name: catalog['upload.report.title'] });
}

/** The polite live region's sentence once the (first) upload of the page is over. */
async function uploadFinished(page: Page, catalog: Catalog) {
  await expect(page.getByText(pattern(catalog['upload.announce.finished']))).toBeAttached({ timeout: 60_000 });
}

test('Anna picks a disc folder: it is sent at once, and she sees what was stored and skipped', async ({ page, baseURL }) => {
  await openUploadPage(page, en, baseURL);
  await expect(uploadedStudies(page, en).getByText(en['upload.studies.empty'])).toBeVisible();
  // No separate send step: picking starts the upload (issue 15).
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en['upload.chooseFolder'] }).click();
  await (await chooser).setFiles(DISC_FOLDER);
  await uploadFinished(page, en);
  await expect(page.getByRole('region', { name: en['notifications.region'] }).getByText(en['upload.success'])).toBeVisible();
  const summary = report(page, en);
  // Both DICOMDIRs are skipped without being sent; every other file of the disc has the marker.
  await expect(summary.getByText(/^2 files are DICOMDIRs/)).toBeVisible();
  await expect(summary.getByText(pattern(en['upload.skipped.notDicom']))).toHaveCount(0);
  // TINY_ALPHA's 50 objects carry no pixel data: the server refuses them and says why.
  await expect(summary.getByText(`50 files refused: ${en['upload.refusal.not_image']}`)).toBeVisible();
  const stored = Number((await summary.getByText(/images? stored$/).textContent())!.replace(/\D/g, ''));
  const copies = summary.getByText(/copies of other chosen files/);
  const copyCount = (await copies.count()) > 0 ? Number((await copies.textContent())!.match(/^\d+/)![0]) : 0;
  expect(stored + copyCount + 50, (await summary.textContent())!).toBe(DISC_FILES - 2);
  await expect(page.getByText(`${DISC_FILES - 2} of ${DISC_FILES - 2} files done`)).toBeVisible();
  // The summary and her studies, in every contrast theme.
  expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

  // The studies of the three patients of the disc (CR, CT, MR) and TINY_ALPHA's.
  const studies = uploadedStudies(page, en);
  await expect(studies.getByRole('row')).not.toHaveCount(1);
  await expect(studies.getByRole('gridcell', { name: 'MR' }).first()).toBeVisible();
  await expect(studies.getByRole('gridcell', { name: 'CT' }).first()).toBeVisible();

  // Single files, one of them without the marker: a new upload with its own summary.
  const single = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en['upload.chooseFiles'] }).click();
  await (await single).setFiles([`${corpus}CT_small.dcm`, `${corpus}ExplVR_LitEndNoMeta.dcm`, `${corpus}MR_small.dcm`]);
  await expect(summary.getByText('1 file is not a DICOM image and was skipped')).toBeVisible({ timeout: 30_000 });
  await expect(summary.getByText('2 images stored')).toBeVisible();
  await expect(summary.getByText(/DICOMDIR/)).toHaveCount(0);
});

test('Polish, with the keyboard and by dropping files: counts in Polish plural forms, images already there not sent again', async ({
  page,
  baseURL,
}) => {
  await openUploadPage(page, pl, baseURL);

  await dropFiles(page, ['CT_small.dcm', 'ExplVR_LitEndNoMeta.dcm', 'JPEG2000.dcm']);
  await uploadFinished(page, pl);
  const summary = report(page, pl);
  await expect(summary.getByText('1 plik nie jest obrazem DICOM i został pominięty')).toBeVisible();
  await expect(summary.getByText('Zapisano 1 obraz')).toBeVisible();
  // Stored by the journey before: asked about by its UID and not sent again.
  await expect(summary.getByText('1 obraz jest już na Twoim koncie i nie został wysłany ponownie')).toBeVisible();
  await expect(page.getByRole('region', { name: pl['notifications.region'] }).getByText(pl['upload.success'])).toBeVisible();

  // One more by the file picker, opened from the keyboard.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: pl['upload.chooseFiles'] }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles([`${corpus}MR_small.dcm`, `${corpus}JPEG2000.dcm`]);
  await expect(summary.getByText('2 obrazy są już na Twoim koncie i nie zostały wysłane ponownie')).toBeVisible({ timeout: 30_000 });
  await expect(summary.getByText('Nie zapisano żadnego obrazu')).toBeVisible();
});

test('the upload page fits a 360 px phone at text size 160% in the strongest contrast theme', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openUploadPage(page, pl, baseURL, { fontScale: 1.6, theme: 'black-pink' });
  await expect(page.locator('body')).toHaveCSS('font-size', '22.4px');
  await expectNoSidewaysScrolling(page);

  // A refused file with its reason, and a skipped one. (The disc's images were stored by the first journey.)
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: pl['upload.chooseFiles'] }).click();
  await (await chooser).setFiles([`${DISC_FOLDER}/TINY_ALPHA/PT000000/ST000000/SE000000/IM00000J`, `${corpus}ExplVR_LitEndNoMeta.dcm`]);
  await uploadFinished(page, pl);
  const summary = report(page, pl);
  await expect(summary.getByText('1 plik nie jest obrazem DICOM i został pominięty')).toBeVisible();
  await summary.getByRole('button', { name: pl['upload.report.problemFiles'] }).click();
  await expect(summary.getByText(`IM00000J: ${pl['upload.refusal.not_image']}`)).toBeVisible();
  await expectNoSidewaysScrolling(page);
  expect(await axeViolations(page)).toEqual([]);
  await expect(uploadedStudies(page, pl).getByRole('row')).not.toHaveCount(1);
});
