import { expect, test, type Page } from '@playwright/test';
import { en } from './support/catalogs';
import { answerCookieDialog } from './support/cookie-dialog';
import { ANNA, EWA, RESULT_CODE, type PortalAccount } from './support/demo-accounts';
import { acceptConsents, fillResultLogin, submitPortalLogin } from './support/login-forms';
import { startWithPreferences } from './support/preferences';
import { keptCount } from './support/device-store';

// The English UI, so the texts of the spec can be used as accessible names.
test.beforeEach(async ({ page }) => {
  await startWithPreferences(page, { lang: 'en' });
});

/** Opens a path and answers the modal cookie dialog, which otherwise hides the page. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await answerCookieDialog(page, en);
}

async function resultLogin(page: Page, code: string): Promise<void> {
  await open(page, '/login');
  await fillResultLogin(page, en, code);
  await acceptConsents(page, en);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function portalLogin(page: Page, account: PortalAccount): Promise<void> {
  await open(page, '/portal/login');
  await submitPortalLogin(page, en, account);
}

test.describe('result portal login', () => {
  test('the demo access code and birth date land on the screening', async ({ page }) => {
    await resultLogin(page, RESULT_CODE);
    await expect(page).toHaveURL(/\/screening$/);
  });

  test('an empty form shows the validation messages under the fields', async ({ page }) => {
    await open(page, '/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Access code not specified')).toBeVisible();
    await expect(page.getByText('The date given is incorrect')).toBeVisible();
    await expect(page.getByText('No consent indicated')).toHaveCount(2);
    await expect(page.getByLabel('Access code', { exact: true })).toBeFocused();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a wrong access code says so', async ({ page }) => {
    await resultLogin(page, 'Wrong123');
    const loginCard = page.getByRole('region', { name: 'Result Portal' });
    await expect(loginCard.getByRole('alert')).toHaveText('Incorrect access code');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the consent links open the regulations and the privacy policy in a new tab', async ({ page }) => {
    await open(page, '/login');
    await expect(page.getByRole('link', { name: /portal terms/ })).toHaveAttribute('href', '/portal/regulations');
    await expect(page.getByRole('link', { name: /portal terms/ })).toHaveAttribute('target', '_blank');
    await expect(page.getByRole('link', { name: /privacy policy/ })).toHaveAttribute('href', '/portal/consent');
    await expect(page.getByRole('link', { name: /questions and answers/ })).toHaveAttribute('href', '/faq');
  });
});

test.describe('patient portal login', () => {
  test('Anna lands on her screenings', async ({ page }) => {
    await portalLogin(page, ANNA);
    await expect(page).toHaveURL(/\/screenings$/);
  });

  test('Ewa is held on the profile until she changes the password', async ({ page }) => {
    await portalLogin(page, EWA);
    await expect(page).toHaveURL(/\/portal\/profile$/);
    await page.goto('/screenings');
    await expect(page).toHaveURL(/\/portal\/profile$/);
  });

  test('log out returns to base and the screenings then need a login', async ({ page }) => {
    await portalLogin(page, ANNA);
    await expect(page).toHaveURL(/\/screenings$/);
    await expect(page.getByRole('grid')).toBeVisible();
    // She did not choose to keep her results on this device: nothing of hers is kept, so logging
    // out asks nothing, and the device forgets her.
    expect(await keptCount(page, 'lists')).toBe(0);
    await page.getByRole('button', { name: /^User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('dialog', { name: 'Log out' })).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('portal.deviceOwner'))).toBeNull();
    await page.goto('/screenings');
    await expect(page).toHaveURL(/\/portal\/login$/);
  });
});
