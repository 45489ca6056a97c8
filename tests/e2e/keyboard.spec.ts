import { expect, test, type Page } from '@playwright/test';
import { pl } from './support/catalogs';
import { RESULT_BIRTH_DATE, RESULT_BIRTH_DIGITS, RESULT_CODE } from './support/demo-accounts';
import { expectAppStarted, expectVisibleFocus, tabTo } from './support/keyboard';
import { consentCheckboxes } from './support/login-forms';
import { skipCookieDialog } from './support/preferences';

// Only page.keyboard from the first key on: no clicks, no fill().

function tile(page: Page, key: 'home.resultPortal.title' | 'home.patientPortal.title') {
  return page.getByRole('main').getByRole('link', { name: new RegExp(`^${pl[key]}`) });
}

test('home to a signed-in result with the keyboard alone', async ({ page, context, baseURL }) => {
  await skipCookieDialog(context, baseURL);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: pl['home.title'] })).toBeVisible();
  await expectAppStarted(page);

  await page.keyboard.press('Tab');
  const skipLink = page.getByRole('link', { name: pl['app.skipToContent'] });
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();
  await expectVisibleFocus(skipLink);

  // The skip link passes the header: the next stop is the first tile.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(tile(page, 'home.resultPortal.title')).toBeFocused();
  await expectVisibleFocus(tile(page, 'home.resultPortal.title'));
  await page.keyboard.press('Tab');
  await expect(tile(page, 'home.patientPortal.title')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(tile(page, 'home.resultPortal.title')).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: pl['login.result.title'] })).toBeVisible();

  const accessCode = page.getByLabel(pl['login.accessCode.label'], { exact: true });
  await tabTo(page, accessCode);
  await page.keyboard.type(RESULT_CODE);
  await expect(accessCode).toHaveValue(RESULT_CODE);

  const birthAt = page.getByLabel(pl['login.birthAt.label'], { exact: true });
  await tabTo(page, birthAt);
  await page.keyboard.type(RESULT_BIRTH_DIGITS);
  await expect(birthAt).toHaveValue(RESULT_BIRTH_DATE);

  for (const checkbox of consentCheckboxes(page, pl)) {
    await tabTo(page, checkbox);
    await page.keyboard.press('Space');
    await expect(checkbox).toBeChecked();
  }

  await tabTo(page, page.getByRole('button', { name: pl['login.submit'] }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/screening$/);
});
