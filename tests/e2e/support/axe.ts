import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Preferences } from './preferences';

/** The five contrast themes of the accessibility panel. */
export const CONTRAST_THEMES: ReadonlyArray<Preferences['theme']> = ['default', 'black-white', 'white-black', 'black-pink', 'pink-black'];

/**
 * axe-core's WCAG 2 A and AA findings on the page as it is now, one line each (rule and where),
 * without react-aria's live announcer: its pending announcements may point at controls that are
 * gone once their work finished.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).exclude('[role="log"][aria-live]').analyze();
  return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * The findings in each contrast theme, switched on the page in place (as the accessibility panel
 * does), so one state of a page is checked in all five; the page's own theme is restored after.
 */
export async function axeViolationsInEveryTheme(page: Page): Promise<Record<string, string[]>> {
  const own = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  const found: Record<string, string[]> = {};
  for (const theme of CONTRAST_THEMES) {
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
    found[theme] = await axeViolations(page);
  }
  await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name ?? 'default'), own);
  return found;
}

/** What axeViolationsInEveryTheme answers for a page without findings. */
export const NO_VIOLATIONS_IN_ANY_THEME: Record<string, string[]> = Object.fromEntries(CONTRAST_THEMES.map((theme) => [theme, []]));
