import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { en } from './support/catalogs';
import { axeViolations } from './support/axe';
import { RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin, userMenuButton } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';
import { keptCount } from './support/device-store';
import { DEVICE_PIN, keepCopiesOnDevice, keepSwitch, pinPrompt, unlockWithPin } from './support/keep-on-device';

/**
 * Offline copies of a result (issues 4 and 16): only once she chose to keep copies on this device
 * (with a device PIN) is what the patient opened kept, sealed; with the network off it opens only
 * after her PIN, she can delete it, and logging out without keeping them leaves nothing behind.
 * Without her choice nothing is kept: a browser closed without logging out, or a session ended
 * by the idle timeout, leaves nothing of her to read. Runs on a portal of its own: the journeys
 * sign in and out.
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

const rememberedOwner = (page: Page) => page.evaluate(() => localStorage.getItem('portal.deviceOwner'));

/** The installed app: the service worker answers navigations from its precache. */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** Offline, her result page is not shown from the device: the result login, and no result. */
async function expectResultWithheldOffline(page: Page): Promise<void> {
  await page.goto('/screening');
  await expect(page).toHaveURL(/\/login$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: en['login.result.title'] })).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveCount(0);
  await expect(pinPrompt(page, en)).toHaveCount(0);
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

test('the patient reads her result and description offline after her PIN, deletes the copy and logs out without keeping copies', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signIn(page);
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  // She chooses to keep her results on this device, with a device PIN.
  await keepCopiesOnDevice(page, en);
  await openDescription(page);
  await openViewer(facilitiesListViewer(page));
  await expect.poll(() => keptCounts(page)).toEqual({ screenings: 1, documents: 2 });
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  // Her copies are sealed: the page asks for her PIN first, and a wrong one opens nothing.
  await expect(pinPrompt(page, en)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('result-wording')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel(en['offline.unlock.pin'], { exact: true }).fill('111111');
  await page.getByRole('button', { name: en['offline.unlock.submit'] }).click();
  await expect(page.getByText('Wrong PIN. 4 attempts left.')).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveCount(0);
  await unlockWithPin(page, en);
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
  await expect(keepSwitch(page, en)).toBeChecked();
  await openDescription(page);
  await expect.poll(() => keptCounts(page)).toEqual({ screenings: 1, documents: 1 });
  await logOut(page, true);
  expect(await keptCounts(page)).toEqual({ screenings: 1, documents: 1 });
  await signIn(page);
  await expect(page.getByRole('region', { name: en['offline.saved.title'] }).getByText(en['result.documents.descriptionEn'])).toBeVisible();
  await logOut(page, false);
  expect(await keptCounts(page)).toEqual({ screenings: 0, documents: 0 });
  expect(await keptCount(page, 'ownerKeys')).toBe(0);
  expect(await rememberedOwner(page)).toBeNull();
});

test('without her choice nothing is kept: the browser closed without logging out leaves nothing of her to read offline', async ({
  playwright,
  launchOptions,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  // A profile on disk, closed and opened again as a browser is: its session cookie goes, the
  // device's storage (and the installed app's service worker) stay.
  const profile = testInfo.outputPath('profile');
  const open = async (): Promise<[BrowserContext, Page]> => {
    const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
    return [context, context.pages()[0] ?? (await context.newPage())];
  };

  let [context, page] = await open();
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signIn(page);
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  await expect(keepSwitch(page, en)).not.toBeChecked();
  // She reads her description (shown from memory) and closes the browser instead of logging out.
  await openDescription(page);
  await openViewer(facilitiesListViewer(page));
  await waitForServiceWorker(page);
  expect(await keptCounts(page)).toEqual({ screenings: 0, documents: 0 });
  expect(await keptCount(page, 'lists')).toBe(0);
  await context.close();

  // The next person opens the browser, turns the network off and goes to the result page.
  [context, page] = await open();
  try {
    await context.setOffline(true);
    await expectResultWithheldOffline(page);
    expect(await keptCounts(page)).toEqual({ screenings: 0, documents: 0 });
    // Nothing on the device names her any more.
    await expect.poll(() => rememberedOwner(page), { timeout: 15_000 }).toBeNull();
  } finally {
    await context.close();
  }
});

test('the session ended by the idle timeout clears what she did not choose to keep; what she chose stays sealed', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // The page's own clock: fifteen minutes pass in a moment (the server's timeout is the same).
  await page.clock.install();
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signIn(page);
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  await openDescription(page);
  await waitForServiceWorker(page);
  expect(await rememberedOwner(page)).toMatch(/^g:\d+$/);

  // She walks away: 16 minutes without her input or a request.
  await page.clock.fastForward('16:00');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(en['offline.idle.ended'])).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveCount(0);
  await expect.poll(() => rememberedOwner(page)).toBeNull();
  expect(await keptCounts(page)).toEqual({ screenings: 0, documents: 0 });
  expect((await page.request.get('/api/auth/session').then((answer) => answer.json())) as unknown).toEqual({ user: null });
  await context.setOffline(true);
  try {
    await expectResultWithheldOffline(page);
  } finally {
    await context.setOffline(false);
  }

  // With her choice made, the idle timeout leaves her copies, sealed: offline they need her PIN.
  await signIn(page);
  await keepCopiesOnDevice(page, en);
  await openDescription(page);
  await expect.poll(() => keptCounts(page)).toEqual({ screenings: 1, documents: 1 });
  await page.clock.fastForward('16:00');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(en['offline.idle.ended'])).toBeVisible();
  expect(await keptCounts(page)).toEqual({ screenings: 1, documents: 1 });
  await context.setOffline(true);
  try {
    await page.goto('/screening');
    await unlockWithPin(page, en, DEVICE_PIN);
    await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  } finally {
    await context.setOffline(false);
  }
});
