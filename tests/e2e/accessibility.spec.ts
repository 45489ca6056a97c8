import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { CONTRAST_THEMES } from './support/axe';
import { pl } from './support/catalogs';
import { cookieDialog } from './support/cookie-dialog';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/** Every page a visitor can open without signing in (spec section 2). */
const PUBLIC_PATHS = [
  '/',
  '/faq',
  '/contact',
  '/login',
  '/portal/login',
  '/portal/regulations',
  '/portal/consent',
  '/copy-of-medical-clerking',
  '/reset-password',
] as const;

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** The serious and critical findings of axe-core, one readable line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => {
      const where = violation.nodes.map((node) => node.target.join(' ')).join(', ');
      return `${violation.impact} ${violation.id}: ${violation.help} (${where})`;
    });
}

/**
 * What the browser reports as errors while the page runs: a Content-Security-Policy violation
 * (an injected style or script the policy does not allow) shows up here before anywhere else.
 */
function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    // A signed-out page load asks who is signed in and gets "nobody" (200): no failed request.
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function openAndWaitForPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
}

for (const theme of CONTRAST_THEMES) {
  test.describe(`axe-core in the ${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await startWithPreferences(page, { theme });
    });

    for (const path of PUBLIC_PATHS) {
      test(`${path} has no serious or critical violation`, async ({ page, context, baseURL }) => {
        await skipCookieDialog(context, baseURL);
        const consoleErrors = collectConsoleErrors(page);
        await openAndWaitForPage(page, path);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        expect(await seriousViolations(page)).toEqual([]);
        expect(consoleErrors).toEqual([]);
      });
    }

    test('home with the cookie dialog open, also with the cookie table shown', async ({ page }) => {
      const consoleErrors = collectConsoleErrors(page);
      await page.goto('/');
      const dialog = cookieDialog(page, pl);
      await expect(dialog).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await dialog.getByRole('button', { name: pl['cookies.adjust'] }).click();
      await expect(dialog.getByRole('table', { name: pl['cookies.table.caption'] })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // The modal dialog makes react-aria inject its scroll-lock style: allowed by its hash.
      expect(consoleErrors).toEqual([]);
    });
  });
}
