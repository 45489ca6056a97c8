import { expect, type Locator, type Page } from '@playwright/test';
import { en } from './support/catalogs';
import { ANNA, EWA, type PortalAccount } from './support/demo-accounts';
import { submitPortalLogin, userMenuButton } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';
import { keptCount, keptRecords } from './support/device-store';
import { keepCopiesOnDevice, unlockWithPin } from './support/keep-on-device';

/**
 * Once she chose to keep copies on this device (issue 16), the installed app shows the patient's
 * screenings list and referrals as last seen, with the network off, after her device PIN, marked
 * as the offline copy; only to her. Runs on a portal of its own: the journey signs in and out,
 * and other journeys count the audit entries of the demo patients.
 */
const test = testOnOwnServer();

const offlineMark = new RegExp(`^${en['offline.mark'].replace('{date}', '')}`);
/** A page opened from the precache loads its code first: on a busy 2-core machine that takes a while. */
const PAGE_LOAD = { timeout: 30_000 };

function screeningsTable(page: Page): Locator {
  return page.getByRole('grid', { name: en['screenings.table.label'] });
}

function referralsTable(page: Page): Locator {
  return page.getByRole('grid', { name: en['referrals.table.label'] });
}

/** Rows of a table body (the first row holds the column headers). */
function bodyRows(page: Page, table: Locator): Locator {
  return table.getByRole('row').filter({ has: page.getByRole('gridcell') });
}

function mark(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: offlineMark });
}

/** The lists kept on the device, as "<owner> <kind>". */
async function keptListOwners(page: Page): Promise<string[]> {
  const lists = await keptRecords<{ ownerKey: string; kind: string }>(page, 'lists');
  return lists.map((copy) => `${copy.ownerKey} ${copy.kind}`).sort();
}

async function signIn(page: Page, account: PortalAccount, landing: RegExp): Promise<void> {
  await page.goto('/portal/login');
  await submitPortalLogin(page, en, account);
  await expect(page).toHaveURL(landing);
}

/**
 * Her lists are offline copies: logging out asks whether they stay. `keep`: she ticks "keep"
 * (with the keyboard: the styled box covers react-aria's visually hidden input); 'nothingKept':
 * there is nothing of hers on the device, so no question is asked.
 */
async function logOut(page: Page, keep: boolean | 'nothingKept'): Promise<void> {
  await userMenuButton(page, en).click();
  await page.getByRole('menuitem', { name: en['userMenu.logout'] }).click();
  if (keep !== 'nothingKept') {
    const dialog = page.getByRole('dialog', { name: en['offline.logout.title'] });
    const box = dialog.getByRole('checkbox', { name: en['offline.logout.keep'] });
    await expect(box).not.toBeChecked();
    if (keep) {
      await box.press('Space');
      await expect(box).toBeChecked();
    }
    await dialog.getByRole('button', { name: en['userMenu.logout'] }).click();
  }
  await expect(page).toHaveURL(/\/$/);
}

/** Offline, each of the patient's list pages sends to the patient login: none of the lists is shown. */
async function expectListsWithheldOffline(page: Page): Promise<void> {
  for (const path of ['/screenings', '/referral', '/screenings?tab=referrals']) {
    await page.goto(path);
    // Offline, nobody can be signed in: the patient login, never the kept lists.
    await expect(page).toHaveURL(/\/portal\/login$/, PAGE_LOAD);
    await expect(page.getByRole('heading', { level: 1, name: en['login.portal.title'] })).toBeVisible();
    await expect(mark(page)).toHaveCount(0);
    await expect(page.getByRole('grid')).toHaveCount(0);
  }
}

test('Anna reads her screenings and referrals offline as last seen; neither Ewa, signed in after her, nor anyone after she logged out does', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(360_000);
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signIn(page, ANNA, /\/screenings$/);
  await expect(bodyRows(page, screeningsTable(page))).toHaveCount(5);
  // Nothing is kept until she chooses to keep her results on this device, with a device PIN.
  expect(await keptListOwners(page)).toEqual([]);
  await keepCopiesOnDevice(page, en);
  await page.reload();
  await expect(bodyRows(page, screeningsTable(page))).toHaveCount(5);
  const screeningsOnline = await screeningsTable(page).innerText();
  await page.getByRole('tab', { name: en['referrals.title'] }).click();
  await expect(bodyRows(page, referralsTable(page))).toHaveCount(4);
  const referralsOnline = await referralsTable(page).innerText();
  await expect(mark(page)).toHaveCount(0);
  await expect
    .poll(() => keptListOwners(page))
    .toEqual([expect.stringMatching(/^u:\d+ referrals$/), expect.stringMatching(/^u:\d+ screenings$/)]);
  // The installed app: the service worker answers navigations from its precache.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  try {
    // Each opening of the app (a page loaded afresh) asks for her PIN: its key lives in memory only.
    await page.goto('/screenings');
    await unlockWithPin(page, en);
    await expect(mark(page)).toBeVisible(PAGE_LOAD);
    await expect(mark(page)).toContainText(String(new Date().getFullYear()));
    await expect(mark(page)).toContainText(en['offline.lists.needsConnection']);
    await expect(bodyRows(page, screeningsTable(page))).toHaveCount(5);
    expect(await screeningsTable(page).innerText()).toBe(screeningsOnline);

    await page.goto('/referral');
    await unlockWithPin(page, en);
    await expect(page.getByRole('heading', { level: 1, name: en['referrals.title'] })).toBeVisible(PAGE_LOAD);
    await expect(mark(page)).toBeVisible();
    await expect(bodyRows(page, referralsTable(page))).toHaveCount(4);
    expect(await referralsTable(page).innerText()).toBe(referralsOnline);

    await page.goto('/screenings?tab=referrals');
    await unlockWithPin(page, en);
    await expect(mark(page)).toBeVisible(PAGE_LOAD);
    await expect(bodyRows(page, referralsTable(page))).toHaveCount(4);
  } finally {
    await context.setOffline(false);
  }

  // Back online, the server's lists again, unmarked.
  await page.goto('/screenings');
  await expect(bodyRows(page, screeningsTable(page))).toHaveCount(5, PAGE_LOAD);
  await expect(mark(page)).toHaveCount(0);

  // She keeps her copies on this device; Ewa signs in next on the same browser.
  await logOut(page, true);
  await signIn(page, EWA, /\/portal\/profile$/);
  const annasLists = await keptListOwners(page);
  expect(annasLists).toHaveLength(2);

  await context.setOffline(true);
  try {
    await expectListsWithheldOffline(page);
  } finally {
    await context.setOffline(false);
  }
  // Anna's copies are still on the device: they were withheld, not lost.
  expect(await keptListOwners(page)).toEqual(annasLists);

  // Ewa leaves (nothing of hers is kept); Anna signs in again and logs out without keeping her
  // copies, the default: the device then keeps nothing of hers, and offline nobody sees her lists.
  await page.goto('/portal/profile');
  await logOut(page, 'nothingKept');
  await signIn(page, ANNA, /\/screenings$/);
  await expect(bodyRows(page, screeningsTable(page))).toHaveCount(5);
  await logOut(page, false);
  expect(await keptListOwners(page)).toEqual([]);
  expect(await keptCount(page, 'ownerKeys')).toBe(0);
  expect(await page.evaluate(() => localStorage.getItem('portal.deviceOwner'))).toBeNull();

  await context.setOffline(true);
  try {
    await expectListsWithheldOffline(page);
  } finally {
    await context.setOffline(false);
  }
});

test('when the server ended her session (idle), the page learns it and forgets her on this device', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signIn(page, ANNA, /\/screenings$/);
  await expect(bodyRows(page, screeningsTable(page))).toHaveCount(5);
  expect(await page.evaluate(() => localStorage.getItem('portal.deviceOwner'))).toMatch(/^u:\d+$/);

  // Fifteen minutes without a request end the session on the server (DECISIONS.md 7): its next
  // answer is "nobody", as here.
  await page.route('**/api/auth/session', (route) => route.fulfill({ json: { user: null } }));
  // She goes on within the page (as a link would): the guard asks the session again.
  await page.evaluate(() => {
    history.pushState(null, '', '/referral');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/portal\/login$/, PAGE_LOAD);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('portal.deviceOwner'))).toBeNull();
  expect(await keptListOwners(page)).toEqual([]);
});
