import type { BrowserContext, Page } from '@playwright/test';

/** The shape index.html's inline script reads from localStorage before the first paint. */
export type Preferences = {
  lang: 'pl' | 'en';
  theme: 'default' | 'black-white' | 'white-black' | 'black-pink' | 'pink-black';
  fontScale: 1 | 1.4 | 1.6;
};
export const PREFS_STORAGE_KEY = 'portal.prefs';
export const DEFAULT_PREFERENCES: Preferences = { lang: 'pl', theme: 'default', fontScale: 1 };

/**
 * Starts every page of the test with these preferences, as if chosen on an earlier visit. Only
 * when none are stored yet, so choices made during the test survive its reloads.
 */
export async function startWithPreferences(page: Page, preferences: Partial<Preferences>): Promise<void> {
  await page.addInitScript(
    ({ key, value }) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    { key: PREFS_STORAGE_KEY, value: JSON.stringify({ ...DEFAULT_PREFERENCES, ...preferences }) },
  );
}

export async function storedPreferences(page: Page): Promise<unknown> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown, PREFS_STORAGE_KEY);
}

/**
 * The consent cookie a returning visitor already has, so the modal cookie dialog stays closed
 * (for journeys about something else than the dialog).
 */
export async function skipCookieDialog(context: BrowserContext, baseURL: string | undefined): Promise<void> {
  if (!baseURL) throw new Error('skipCookieDialog needs the baseURL of playwright.config.ts');
  const value = JSON.stringify({ version: 1, choice: 'allow-all', decidedAt: new Date().toISOString() });
  await context.addCookies([{ name: 'portal.cookie-consent', value: encodeURIComponent(value), url: baseURL }]);
}
