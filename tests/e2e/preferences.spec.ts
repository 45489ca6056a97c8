import { expect, test, type Locator, type Page } from '@playwright/test';
import { en, pl, type Catalog } from './support/catalogs';
import { DEFAULT_PREFERENCES, skipCookieDialog, storedPreferences } from './support/preferences';

// page.route cannot see what a service worker answers from its cache, and the reload below must
// hold back the app's own script.
test.use({ serviceWorkers: 'block' });

/** The app's entry module (Vite names it index-<hash>.js); nothing of the app runs before it. */
const APP_ENTRY = /\/assets\/index-[\w-]+\.js$/;

/** Spec section 9: body text is 14px, times the font scale. */
const BODY_FONT = { normal: '14px', largest: '22.4px' } as const;

/** Holds the app's entry script until released, so the page shows what index.html alone did. */
async function holdAppScript(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => (held = resolve));
  await page.route(APP_ENTRY, async (route) => {
    held();
    await released;
    await route.continue();
  });
  return { isHeld, release };
}

function settingsPanel(page: Page, catalog: Catalog) {
  return page.getByRole('dialog', { name: catalog['a11y.panel.title'] });
}

/** Clicks an option's label, as a user does: the radio input itself is visually hidden. */
async function choose(panel: Locator, label: string): Promise<void> {
  await panel
    .locator('label')
    .filter({ has: panel.page().getByRole('radio', { name: label, exact: true }) })
    .click();
}

test('language, text size and contrast survive a reload, applied before the app starts', async ({ page, context, baseURL }) => {
  await skipCookieDialog(context, baseURL);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: pl['home.title'] })).toBeVisible();

  await page.getByRole('button', { name: pl['a11y.panel.open'] }).click();
  await choose(settingsPanel(page, pl), pl['a11y.language.en']);
  // From here on the panel speaks English.
  const panel = settingsPanel(page, en);
  await choose(panel, en['a11y.fontScale.largest']);
  await choose(panel, en['a11y.theme.pinkBlack']);
  for (const chosen of [en['a11y.language.en'], en['a11y.fontScale.largest'], en['a11y.theme.pinkBlack']]) {
    await expect(panel.getByRole('radio', { name: chosen, exact: true })).toBeChecked();
  }
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'pink-black');

  const appScript = await holdAppScript(page);
  await page.reload({ waitUntil: 'commit' });
  await appScript.isHeld;
  // Only index.html and its stylesheet have run: the app has not rendered anything yet, and the
  // Polish page drawn into the HTML at build time is not shown to her (scripts/vite-prerender.ts).
  await expect(page.locator('#root')).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'pink-black');
  await expect(page.locator('body')).toHaveCSS('font-size', BODY_FONT.largest);
  await expect(page).toHaveTitle(en['app.name']);
  appScript.release();

  await expect(page.getByRole('heading', { level: 1, name: en['home.title'] })).toBeVisible();
  await expect(page.locator('body')).toHaveCSS('font-size', BODY_FONT.largest);
  await page.getByRole('button', { name: en['a11y.panel.open'] }).click();
  for (const chosen of [en['a11y.language.en'], en['a11y.fontScale.largest'], en['a11y.theme.pinkBlack']]) {
    await expect(panel.getByRole('radio', { name: chosen, exact: true })).toBeChecked();
  }

  await panel.getByRole('button', { name: en['a11y.reset'] }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'default');
  await expect(page.locator('body')).toHaveCSS('font-size', BODY_FONT.normal);
  await expect(page.getByRole('heading', { level: 1, name: pl['home.title'] })).toBeVisible();
  const polishPanel = settingsPanel(page, pl);
  for (const chosen of [pl['a11y.language.pl'], pl['a11y.fontScale.normal'], pl['a11y.theme.default']]) {
    await expect(polishPanel.getByRole('radio', { name: chosen, exact: true })).toBeChecked();
  }
  expect(await storedPreferences(page)).toEqual(DEFAULT_PREFERENCES);
});
