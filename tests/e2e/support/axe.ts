import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Preferences } from './preferences';

/** The five contrast themes of the accessibility panel. */
export const CONTRAST_THEMES: ReadonlyArray<Preferences['theme']> = ['default', 'black-white', 'white-black', 'black-pink', 'pink-black'];
/** The three font scales of the accessibility panel. */
export const FONT_SCALES: ReadonlyArray<Preferences['fontScale']> = [1, 1.4, 1.6];

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
const RULE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);
/** Best practices held at every impact: two landmarks of one kind and name cannot be told apart. */
const ALWAYS_HELD = new Set(['landmark-unique', 'page-has-heading-one', 'landmark-one-main']);

/**
 * axe-core's findings on the page as it is now, one line each (impact, rule and where): every
 * WCAG A/AA finding, and the serious or critical best-practice ones. The whole page is checked,
 * react-aria's live announcer included.
 */
export async function axeViolations(page: Page, onlyRules?: string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(RULE_TAGS);
  const { violations } = await (onlyRules ? builder.withRules(onlyRules) : builder).analyze();
  return violations
    .filter(
      (violation) =>
        violation.tags.some((tag) => tag.startsWith('wcag')) ||
        BLOCKING_IMPACTS.has(violation.impact ?? '') ||
        ALWAYS_HELD.has(violation.id),
    )
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Switches the theme and the font scale on the page in place, as the accessibility panel does. */
export async function applyPreferences(page: Page, theme: Preferences['theme'], fontScale: Preferences['fontScale']): Promise<void> {
  await page.evaluate(
    ({ name, scale }) => {
      document.documentElement.setAttribute('data-theme', name);
      document.documentElement.style.setProperty('--font-scale', String(scale));
    },
    { name: theme, scale: fontScale },
  );
}

/**
 * The findings in each contrast theme, switched on the page in place (as the accessibility panel
 * does), so one state of a page is checked in all five; the page's own theme is restored after.
 * With reduced motion, as the portal honours it: colours are checked as they are, not halfway
 * through a button's 150 ms transition from the previous theme.
 */
export async function axeViolationsInEveryTheme(page: Page): Promise<Record<string, string[]>> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const own = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  const found: Record<string, string[]> = {};
  for (const theme of CONTRAST_THEMES) {
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
    found[theme] = await axeViolations(page);
  }
  await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name ?? 'default'), own);
  await page.emulateMedia({ reducedMotion: null });
  return found;
}

/**
 * The rules whose outcome a theme or the font scale can change: colours, and sizes and overflow.
 * Every other rule looks at the DOM alone, which switching either leaves as it is.
 */
const RULES_SHAPED_BY_THEME_AND_SCALE = ['color-contrast', 'link-in-text-block', 'target-size', 'scrollable-region-focusable'];

/**
 * The findings in every theme at every font scale (15 states of one page), keyed "theme @ scale":
 * every rule in the first state, then the rules a theme or scale can change in the 14 others (a
 * full run of each would take minutes per page). The page's own theme and scale are restored after.
 */
export async function axeViolationsInEveryThemeAndScale(page: Page): Promise<Record<string, string[]>> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const own = await page.evaluate(() => ({
    theme: document.documentElement.getAttribute('data-theme') ?? 'default',
    scale: document.documentElement.style.getPropertyValue('--font-scale') || '1',
  }));
  const found: Record<string, string[]> = {};
  for (const fontScale of FONT_SCALES) {
    for (const theme of CONTRAST_THEMES) {
      await applyPreferences(page, theme, fontScale);
      const first = fontScale === FONT_SCALES[0] && theme === CONTRAST_THEMES[0];
      const violations = await axeViolations(page, first ? undefined : RULES_SHAPED_BY_THEME_AND_SCALE);
      if (violations.length > 0) found[`${theme} @ ${fontScale}`] = violations;
    }
  }
  await applyPreferences(page, own.theme as Preferences['theme'], Number(own.scale) as Preferences['fontScale']);
  await page.emulateMedia({ reducedMotion: null });
  return found;
}

/** What axeViolationsInEveryTheme answers for a page without findings. */
export const NO_VIOLATIONS_IN_ANY_THEME: Record<string, string[]> = Object.fromEntries(CONTRAST_THEMES.map((theme) => [theme, []]));
