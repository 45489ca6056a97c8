import { expect, test, type Page } from '@playwright/test';
import en from '../../client/i18n/en.json' with { type: 'json' };

/** Demo data of issue 2 (db/seeds). */
const RESULT_CODE = 'Xk7mP2qa';
const RESULT_BIRTH_DIGITS = '19680412';
const ANNA = { login: 'anna.nowak@example.com', password: 'Mammo!2024demo' };
const EWA = { login: 'ewa.wisniewska@example.com', password: 'Zmien!Haslo1' };

// The English UI, so the texts of the spec can be used as accessible names.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('portal.prefs')) {
      localStorage.setItem('portal.prefs', JSON.stringify({ lang: 'en', theme: 'default', fontScale: 1 }));
    }
  });
});

/** Opens a path and answers the modal cookie dialog, which otherwise hides the page. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  const dialog = page.getByRole('dialog', { name: en['cookies.title'] });
  await dialog.getByRole('button', { name: en['cookies.rejectAll'] }).click();
  await expect(dialog).toBeHidden();
}

/** Ticked with the keyboard: the styled box covers react-aria's visually hidden input. */
async function acceptConsents(page: Page): Promise<void> {
  for (const name of [/portal terms/, /privacy policy/]) {
    const checkbox = page.getByRole('checkbox', { name });
    await checkbox.press('Space');
    await expect(checkbox).toBeChecked();
  }
}

async function resultLogin(page: Page, code: string): Promise<void> {
  await open(page, '/login');
  await page.getByLabel('Access code', { exact: true }).fill(code);
  const birthAt = page.getByLabel('Date of birth', { exact: true });
  await birthAt.pressSequentially(RESULT_BIRTH_DIGITS);
  await expect(birthAt).toHaveValue('1968-04-12');
  await acceptConsents(page);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function portalLogin(page: Page, account: { login: string; password: string }): Promise<void> {
  await open(page, '/portal/login');
  await page.getByLabel('Login (email address)').fill(account.login);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await acceptConsents(page);
  await page.getByRole('button', { name: 'Log in' }).click();
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
    await page.getByRole('button', { name: /^User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/screenings');
    await expect(page).toHaveURL(/\/portal\/login$/);
  });
});
