import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { en, pl, type Catalog } from './support/catalogs';
import { CONTRAST_THEMES } from './support/axe';
import { ANNA, EWA, type PortalAccount } from './support/demo-accounts';
import { submitPortalLogin, userMenuButton } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';

/**
 * Password changes in the profile. They change demo accounts other spec files sign in with, so
 * this file runs on a portal of its own and the shared one keeps Anna's and Ewa's passwords.
 */
const test = testOnOwnServer();

const NEW_PASSWORD = 'Kalafior na parze 7';

async function signIn(page: Page, catalog: Catalog, account: PortalAccount, baseURL: string | undefined, prefs: Partial<Preferences>) {
  await startWithPreferences(page, { lang: catalog === en ? 'en' : 'pl', ...prefs });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, account);
}

function passwordFields(page: Page, catalog: Catalog) {
  const form = page.getByRole('region', { name: catalog['profile.password.title'] });
  return {
    form,
    old: form.getByLabel(catalog['profile.password.old']),
    new: form.getByLabel(catalog['profile.password.new'], { exact: true }),
    confirm: form.getByLabel(catalog['profile.password.confirm']),
    submit: form.getByRole('button', { name: catalog['profile.password.submit'] }),
  };
}

/**
 * Serious and critical axe-core findings, one line each (as in accessibility.spec.ts). React
 * Aria's live announcer (a visually hidden role="log" at the top of the body) is left out: after
 * the login it holds an announcement whose aria-labelledby target is no longer in the page.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).exclude('[role="log"][aria-live]').analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

async function logOut(page: Page, catalog: Catalog) {
  await userMenuButton(page, catalog).click();
  await page.getByRole('menuitem', { name: catalog['userMenu.logout'] }).click();
  // She keeps nothing on this device (she never chose to): logged out at once, nothing to ask.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('dialog', { name: catalog['offline.logout.title'] })).toHaveCount(0);
}

test('Anna sees her data and changes her password in the profile', async ({ page, baseURL }) => {
  await signIn(page, en, ANNA, baseURL, {});
  await expect(page).toHaveURL(/\/screenings$/);
  await userMenuButton(page, en).click();
  await page.getByRole('menuitem', { name: en['userMenu.myData'] }).click();
  await expect(page).toHaveURL(/\/portal\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: en['profile.title'] })).toBeVisible();

  const data = page.getByRole('region', { name: en['profile.data.title'] });
  await expect(data.getByRole('definition')).toHaveText(['Anna', 'Nowak', 'July 23, 1962', '62072304688', ANNA.login, '+48601234567']);
  await expect(page.getByRole('alert').filter({ hasText: en['profile.passwordChangeRequired'] })).toHaveCount(0);

  const fields = passwordFields(page, en);
  // A common password is refused before anything is sent.
  await fields.old.fill(ANNA.password);
  await fields.new.fill('Polska123456');
  await fields.confirm.fill('Polska123456');
  await fields.submit.click();
  await expect(fields.form.getByText(en['validation.password.common'])).toBeVisible();
  await expect(fields.new).toBeFocused();

  // A wrong old password: the server says so under that field.
  await fields.old.fill('Not my password 1');
  await fields.new.fill(NEW_PASSWORD);
  await fields.confirm.fill(NEW_PASSWORD);
  await fields.submit.click();
  await expect(fields.form.getByText(en['profile.password.incorrect'])).toBeVisible();
  await expect(fields.old).toBeFocused();

  await fields.old.fill(ANNA.password);
  await fields.submit.click();
  await expect(page.getByText(en['profile.password.changed'])).toBeVisible();
  await expect(fields.old).toHaveValue('');
  await expect(page).toHaveURL(/\/portal\/profile$/);

  // The new password opens the portal; the old one no longer does.
  await logOut(page, en);
  await page.goto('/portal/login');
  await submitPortalLogin(page, en, ANNA);
  await expect(page.getByText(en['errors.LOGIN_FAILED'])).toBeVisible();
  await page.reload();
  await submitPortalLogin(page, en, { login: ANNA.login, password: NEW_PASSWORD });
  await expect(page).toHaveURL(/\/screenings$/);
});

test('Ewa is released after changing her password and can use the portal', async ({ page, baseURL }) => {
  await signIn(page, pl, EWA, baseURL, {});
  await expect(page).toHaveURL(/\/portal\/profile$/);
  const notice = page.getByRole('alert').filter({ hasText: pl['profile.passwordChangeRequired'] });
  await expect(notice).toBeVisible();
  await expect(page.getByRole('region', { name: pl['profile.data.title'] }).getByRole('definition').nth(2)).toHaveText('3 września 1971');

  // Red in every contrast theme.
  for (const theme of CONTRAST_THEMES) {
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
    const [red, green, blue] = (await notice.evaluate((element) => getComputedStyle(element).color)).match(/\d+/g)!.map(Number) as [
      number,
      number,
      number,
    ];
    expect(red, `notice red in ${theme}`).toBeGreaterThan(1.5 * Math.max(green, blue));
    if (theme === 'default' || theme === 'white-black') expect(await seriousViolations(page), theme).toEqual([]);
  }

  const fields = passwordFields(page, pl);
  await fields.old.fill(EWA.password);
  await fields.new.fill(NEW_PASSWORD);
  await fields.confirm.fill(NEW_PASSWORD);
  await fields.submit.click();

  await expect(page.getByText(pl['profile.password.changed'])).toBeVisible();
  await expect(page).toHaveURL(/\/screenings$/);
  await userMenuButton(page, pl).click();
  await page.getByRole('menuitem', { name: pl['userMenu.audit'] }).click();
  await expect(page).toHaveURL(/\/portal\/audit$/);
  await userMenuButton(page, pl).click();
  await page.getByRole('menuitem', { name: pl['userMenu.myData'] }).click();
  await expect(page).toHaveURL(/\/portal\/profile$/);
  await expect(notice).toHaveCount(0);
});

test('on a 360 px phone, with the keyboard only, the form is usable', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, en, { login: ANNA.login, password: NEW_PASSWORD }, baseURL, { fontScale: 1.6 });
  await expect(page).toHaveURL(/\/screenings$/);
  await page.goto('/portal/profile');
  const fields = passwordFields(page, en);
  await expect(fields.old).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await fields.old.focus();
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(fields.new).toBeFocused();
  await page.keyboard.type('short');
  await page.keyboard.press('Tab');
  await expect(fields.confirm).toBeFocused();
  await page.keyboard.type('shorter');
  await page.keyboard.press('Enter');
  await expect(fields.form.getByText(en['validation.password.tooShort'])).toBeVisible();
  await expect(fields.form.getByText(en['validation.password.mismatch'])).toBeVisible();
  await expect(fields.new).toBeFocused();
});
