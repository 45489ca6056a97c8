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
 * DICOM upload (issue 5): Anna sends a disc's folder, single files and dropped files. The images
 * stay in her account, so this file runs on a portal of its own.
 */
const test = testOnOwnServer();

/** 83 files in folders as on a disc, each with the marker; two of them are DICOMDIRs. */
/** The real DICOM files in the repository (their README says what each one is). */
const corpus = `${DICOM_CORPUS_DIR}/`;
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

test('Anna uploads a disc folder with the folder picker and sees what was stored and skipped', async ({ page, baseURL }) => {
  await openUploadPage(page, en, baseURL);
  await expect(uploadedStudies(page, en).getByText(en['upload.studies.empty'])).toBeVisible();
  const send = page.getByRole('button', { name: en['upload.send'] });
  await expect(send).toBeDisabled();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en['upload.chooseFolder'] }).click();
  await (await chooser).setFiles(DISC_FOLDER);
  await expect(page.getByText(new RegExp(`^${DISC_FILES} files, .+ in total$`))).toBeVisible();
  // Every file of the disc has the marker, so the browser skips none of them.
  await expect(page.getByText(pattern(en['upload.skipped.notDicom']))).toHaveCount(0);
  const files = page.getByRole('grid', { name: en['upload.list.title'] });
  await expect(files.getByRole('rowheader').first()).toHaveText('dicomdirtests/77654033/CR1/6154');
  expect(await axeViolations(page)).toEqual([]);

  await send.click();
  const report = page.getByRole('region', { name: en['upload.report.title'] });
  await expect(report).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: en['notifications.region'] }).getByText(en['upload.success'])).toBeVisible();
  await expect(report.getByText(/^\d+ images stored$/)).toBeVisible();
  await expect(report.getByText(`2 files refused: ${en['upload.refusal.dicomdir']}`)).toBeVisible();
  // The list is emptied after sending.
  await expect(page.getByText(en['upload.list.empty'])).toBeVisible();
  await expect(send).toBeDisabled();
  // The report, the emptied list and her studies, in every contrast theme.
  expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

  // The studies of the three patients of the disc (CR, CT, MR) and TINY_ALPHA's.
  const studies = uploadedStudies(page, en);
  await expect(studies.getByRole('row')).not.toHaveCount(1);
  await expect(studies.getByRole('gridcell', { name: 'MR' }).first()).toBeVisible();
  await expect(studies.getByRole('gridcell', { name: 'CT' }).first()).toBeVisible();

  // Single files, one of them without the marker: dropped in the browser and counted.
  const single = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en['upload.chooseFiles'] }).click();
  await (await single).setFiles([`${corpus}CT_small.dcm`, `${corpus}ExplVR_LitEndNoMeta.dcm`, `${corpus}MR_small.dcm`]);
  await expect(page.getByText('1 file is not a DICOM image and was skipped')).toBeVisible();
  await expect(page.getByText(/^2 files, .+ in total$/)).toBeVisible();
  await page.getByRole('button', { name: en['upload.removeFile'].replace('{path}', 'MR_small.dcm') }).click();
  await expect(page.getByText(/^1 file, .+ in total$/)).toBeVisible();
  await page.getByRole('button', { name: en['upload.clear'] }).click();
  await expect(page.getByText(en['upload.list.empty'])).toBeVisible();
  await expect(page.getByText('1 file is not a DICOM image and was skipped')).toHaveCount(0);
});

test('Polish, with the keyboard and by dropping files: counts in Polish plural forms, duplicates kept once', async ({ page, baseURL }) => {
  await openUploadPage(page, pl, baseURL);

  await dropFiles(page, ['CT_small.dcm', 'ExplVR_LitEndNoMeta.dcm', 'JPEG2000.dcm']);
  await expect(page.getByText('1 plik nie jest obrazem DICOM i został pominięty')).toBeVisible();
  await expect(page.getByText(/^2 pliki, łącznie .+$/)).toBeVisible();

  // One more by the file picker, opened and sent from the keyboard.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: pl['upload.chooseFiles'] }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(`${corpus}MR_small.dcm`);
  await expect(page.getByText(/^3 pliki, łącznie .+$/)).toBeVisible();
  const send = page.getByRole('button', { name: pl['upload.send'] });
  await send.focus();
  await page.keyboard.press('Enter');
  const report = page.getByRole('region', { name: pl['upload.report.title'] });
  await expect(report.getByText('Zapisano 3 obrazy')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: pl['notifications.region'] }).getByText(pl['upload.success'])).toBeVisible();
  await expect(page.getByText(pl['upload.list.empty'])).toBeVisible();

  // The same images again: the server keeps each one once.
  await dropFiles(page, ['CT_small.dcm', 'MR_small.dcm']);
  await expect(page.getByText(/^2 pliki, łącznie .+$/)).toBeVisible();
  await send.click();
  await expect(report.getByText('2 obrazy były już na Twoim koncie i zostały zachowane raz')).toBeVisible({ timeout: 30_000 });
  await expect(report.getByText('Nie zapisano żadnego obrazu')).toBeVisible();
});

test('the upload page fits a 360 px phone at text size 160% in the strongest contrast theme', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openUploadPage(page, pl, baseURL, { fontScale: 1.6, theme: 'black-pink' });
  await expect(page.locator('body')).toHaveCSS('font-size', '22.4px');
  await expectNoSidewaysScrolling(page);

  // A disc's long paths on the list, with the pages of the list and the skipped notice.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: pl['upload.chooseFiles'] }).click();
  await (await chooser).setFiles([`${DISC_FOLDER}/98892003/MR700/4648`, `${corpus}CT_small.dcm`, `${corpus}ExplVR_LitEndNoMeta.dcm`]);
  await expect(page.getByText(/^2 pliki, łącznie .+$/)).toBeVisible();
  await expect(page.getByText('1 plik nie jest obrazem DICOM i został pominięty')).toBeVisible();
  await expectNoSidewaysScrolling(page);
  expect(await axeViolations(page)).toEqual([]);

  // The report and the list of studies after sending.
  await page.getByRole('button', { name: pl['upload.send'] }).click();
  await expect(page.getByRole('region', { name: pl['upload.report.title'] })).toBeVisible({ timeout: 30_000 });
  await expect(uploadedStudies(page, pl).getByRole('row')).not.toHaveCount(1);
  await expectNoSidewaysScrolling(page);
  expect(await axeViolations(page)).toEqual([]);
});
