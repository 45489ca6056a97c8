import { expect, type Locator, type Page } from '@playwright/test';
import { en } from './support/catalogs';
import { RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin, userMenuButton } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';
import { keptCount } from './support/device-store';

/**
 * Offline copies of a result (issue 4): what the patient opened is read from the device with the
 * network off, she can delete it, and logging out without keeping them leaves nothing behind.
 * Runs on a portal of its own: the journey ends with a logout.
 */
const test = testOnOwnServer();

const firstPage = new RegExp(`^${en['result.pdf.pageLabel'].replace('{page}', '1').replace('{pages}', '\\d+')}$`);
const offlineMark = new RegExp(`^${en['offline.mark'].replace('{date}', '')}`);

function canvasHasDrawing(viewer: Locator): Promise<boolean> {
  return viewer
    .getByRole('img', { name: firstPage })
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) return false;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let index = 4; index < data.length; index += 4) {
        if (data[index] !== data[0] || data[index + 1] !== data[1] || data[index + 2] !== data[2]) return true;
      }
      return false;
    });
}

/** How many screenings and documents the device keeps, for every owner. */
async function keptCounts(page: Page): Promise<{ screenings: number; documents: number }> {
  return { screenings: await keptCount(page, 'screenings'), documents: await keptCount(page, 'documents') };
}

function descriptionViewer(page: Page) {
  return page.getByRole('region', { name: en['result.documents.descriptionEn'], exact: true });
}

/** The facilities list: served without a document id, kept under one made from its screening. */
function facilitiesListViewer(page: Page) {
  return page.getByRole('region', { name: en['result.documents.facilitiesList'], exact: true });
}

async function expectFirstPageDrawn(viewer: Locator): Promise<void> {
  await expect(viewer.getByRole('img', { name: firstPage })).toBeVisible();
  await expect.poll(() => canvasHasDrawing(viewer), { timeout: 10_000 }).toBe(true);
}

async function openViewer(viewer: Locator): Promise<void> {
  await viewer.getByRole('button', { name: en['result.pdf.open'] }).click();
  await expectFirstPageDrawn(viewer);
}

const openDescription = (page: Page) => openViewer(descriptionViewer(page));

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await fillResultLogin(page, en, RESULT_CODE);
  await acceptConsents(page, en);
  await page.getByRole('button', { name: en['login.submit'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
}

async function logOut(page: Page, keepCopies: boolean): Promise<void> {
  await userMenuButton(page, en).click();
  await page.getByRole('menuitem', { name: en['userMenu.logout'] }).click();
  const dialog = page.getByRole('dialog', { name: en['offline.logout.title'] });
  const keep = dialog.getByRole('checkbox', { name: en['offline.logout.keep'] });
  await expect(keep).not.toBeChecked();
  // Ticked with the keyboard: the styled box covers react-aria's visually hidden input.
  if (keepCopies) {
    await keep.press('Space');
    await expect(keep).toBeChecked();
  }
  await dialog.getByRole('button', { name: en['userMenu.logout'] }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('the patient reads her result and description offline, deletes the copy and logs out without keeping copies', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signIn(page);
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  await openDescription(page);
  await openViewer(facilitiesListViewer(page));
  await expect.poll(() => keptCounts(page)).toEqual({ screenings: 1, documents: 2 });
  // The installed app: the service worker answers navigations from its precache.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: offlineMark })).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  await expect(page.getByRole('table')).toBeVisible();
  // The kept description is what she came back for: it opens by itself, costing no data. The
  // other kept documents still open on request.
  await expectFirstPageDrawn(descriptionViewer(page));
  await expect(descriptionViewer(page).getByRole('button', { name: en['result.pdf.open'] })).toHaveCount(0);
  await openViewer(facilitiesListViewer(page));
  // Every other document was never opened: it says so instead of offering to open it.
  const viewers = page.locator('.pdf-viewer');
  await expect(page.getByText(en['offline.notAvailable'], { exact: true })).toHaveCount((await viewers.count()) - 2);

  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  await expect(page.getByRole('status').filter({ hasText: offlineMark })).toHaveCount(0);
  const saved = page.getByRole('region', { name: en['offline.saved.title'] });
  await expect(saved.getByText(en['result.documents.descriptionEn'])).toBeVisible();
  await expect(saved.getByText(en['result.documents.facilitiesList'])).toBeVisible();
  const deleteOne = new RegExp(`^${en['offline.saved.deleteOneLabel'].replace('{date}', '')}`);
  await saved.getByRole('button', { name: deleteOne }).click();
  const confirm = page.getByRole('alertdialog', { name: en['offline.saved.confirmOneTitle'] });
  await confirm.getByRole('button', { name: en['offline.saved.confirmDelete'] }).click();
  await expect(saved.getByText(en['offline.saved.empty'])).toBeVisible();
  await expect.poll(() => keptCounts(page)).toEqual({ screenings: 0, documents: 0 });

  // Opened again: logging out keeping the copies leaves them, not keeping them deletes them.
  await openDescription(page);
  await expect.poll(() => keptCounts(page)).toEqual({ screenings: 1, documents: 1 });
  await logOut(page, true);
  expect(await keptCounts(page)).toEqual({ screenings: 1, documents: 1 });
  await signIn(page);
  await expect(page.getByRole('region', { name: en['offline.saved.title'] }).getByText(en['result.documents.descriptionEn'])).toBeVisible();
  await logOut(page, false);
  expect(await keptCounts(page)).toEqual({ screenings: 0, documents: 0 });
  expect(await page.evaluate(() => localStorage.getItem('portal.deviceOwner'))).toBeNull();
});
