import { expect, test, type Page } from '@playwright/test';
import { signInThroughApi } from './support/api-sign-in';
import { axeViolationsInEveryThemeAndScale } from './support/axe';
import { pl } from './support/catalogs';
import { cookieDialog } from './support/cookie-dialog';
import { keptCount } from './support/device-store';
import { DEVICE_PIN, keepSwitch, pinPrompt } from './support/keep-on-device';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

// The narrowest phone the portal supports, with the largest text.
const PHONE_WIDTH = 360;
test.use({ viewport: { width: PHONE_WIDTH, height: 740 }, isMobile: true, hasTouch: true });

test.beforeEach(async ({ page }) => {
  await startWithPreferences(page, { fontScale: 1.6 });
});

async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const wider = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { scrollWidth: root.scrollWidth, widerThanScreen: wider };
  });
}

for (const { path, heading } of [
  { path: '/', heading: pl['home.title'] },
  { path: '/login', heading: pl['login.result.title'] },
  { path: '/portal/login', heading: pl['login.portal.title'] },
]) {
  test(`${path} needs no sideways scrolling at ${PHONE_WIDTH}px with text at 160%`, async ({ page, context, baseURL }) => {
    await skipCookieDialog(context, baseURL);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('body')).toHaveCSS('font-size', '22.4px');

    const overflow = await horizontalOverflow(page);
    expect(overflow.scrollWidth, `wider than the screen: ${overflow.widerThanScreen.join(', ')}`).toBeLessThanOrEqual(PHONE_WIDTH);
  });
}

test(`the cookie dialog fits ${PHONE_WIDTH}px with text at 160%`, async ({ page }) => {
  await page.goto('/');
  const dialog = cookieDialog(page, pl);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: pl['cookies.adjust'] }).click();
  await expect(dialog.getByRole('table', { name: pl['cookies.table.caption'] })).toBeVisible();

  const overflow = await horizontalOverflow(page);
  expect(overflow.scrollWidth, `wider than the screen: ${overflow.widerThanScreen.join(', ')}`).toBeLessThanOrEqual(PHONE_WIDTH);
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE_WIDTH, 'the dialog lies within the screen').toBe(true);
});

test(`keeping results on the device: its switch, the PIN dialog and the offline PIN prompt fit ${PHONE_WIDTH}px with text at 160%, accessible in every theme`, async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await skipCookieDialog(context, baseURL);
  await signInThroughApi(page.request, 'guest');
  await page.goto('/screening');
  const toggle = keepSwitch(page, pl);
  await expect(toggle).toBeEnabled({ timeout: 30_000 });
  let overflow = await horizontalOverflow(page);
  expect(overflow.scrollWidth, `wider than the screen: ${overflow.widerThanScreen.join(', ')}`).toBeLessThanOrEqual(PHONE_WIDTH);

  await toggle.press('Space');
  const dialog = page.getByRole('dialog', { name: pl['offline.keep.pinTitle'] });
  await dialog.getByRole('button', { name: pl['offline.keep.confirm'] }).click();
  await expect(dialog.getByText(pl['offline.pin.errors.required'])).toBeVisible();
  overflow = await horizontalOverflow(page);
  expect(overflow.scrollWidth, `wider than the screen: ${overflow.widerThanScreen.join(', ')}`).toBeLessThanOrEqual(PHONE_WIDTH);
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE_WIDTH, 'the dialog lies within the screen').toBe(true);
  expect(await axeViolationsInEveryThemeAndScale(page)).toEqual({});

  await dialog.getByLabel(pl['offline.keep.pin'], { exact: true }).fill(DEVICE_PIN);
  await dialog.getByLabel(pl['offline.keep.pinAgain'], { exact: true }).fill(DEVICE_PIN);
  await dialog.getByRole('button', { name: pl['offline.keep.confirm'] }).click();
  await expect(toggle).toBeChecked();

  // Offline, the installed app asks for the PIN before her result.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page
    .getByRole('region', { name: pl['result.documents.descriptionEn'], exact: true })
    .getByRole('button', { name: pl['result.pdf.open'] })
    .click();
  await expect.poll(() => keptCount(page, 'documents')).toBe(1);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(pinPrompt(page, pl)).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('body')).toHaveCSS('font-size', '22.4px');
    overflow = await horizontalOverflow(page);
    expect(overflow.scrollWidth, `wider than the screen: ${overflow.widerThanScreen.join(', ')}`).toBeLessThanOrEqual(PHONE_WIDTH);
    expect(await axeViolationsInEveryThemeAndScale(page)).toEqual({});
  } finally {
    await context.setOffline(false);
  }
});
