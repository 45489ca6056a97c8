import { expect, test, type Page } from '@playwright/test';
import { axeViolations, CONTRAST_THEMES } from './support/axe';
import { pl } from './support/catalogs';
import { cookieDialog } from './support/cookie-dialog';
import { startWithPreferences } from './support/preferences';

// Every page in every theme and font scale is every-page.spec.ts; here, the cookie dialog that
// opens over the home page on a first visit, in each theme it is first seen in.

/**
 * What the browser reports as errors while the page runs: a Content-Security-Policy violation
 * (an injected style or script the policy does not allow) shows up here before anywhere else.
 */
function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

for (const theme of CONTRAST_THEMES) {
  test(`home with the cookie dialog open in the ${theme} theme, also with the cookie table shown`, async ({ page }) => {
    await startWithPreferences(page, { theme });
    const consoleErrors = collectConsoleErrors(page);
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const dialog = cookieDialog(page, pl);
    await expect(dialog).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: pl['cookies.adjust'] }).click();
    await expect(dialog.getByRole('table', { name: pl['cookies.table.caption'] })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    // The modal dialog makes react-aria inject its scroll-lock style: allowed by its hash.
    expect(consoleErrors).toEqual([]);
  });
}
