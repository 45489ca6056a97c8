import { expect, test, type Page } from '@playwright/test';
import { en, pl, type Catalog } from './support/catalogs';
import { answerCookieDialog } from './support/cookie-dialog';
import { ANNA, EWA, RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin, submitPortalLogin, userMenuButton } from './support/login-forms';
import { skipCookieDialog } from './support/preferences';

// A newcomer's first visit: no stored preferences, so the portal speaks Polish (the default).

const TILE_TITLES = ['home.resultPortal.title', 'home.patientPortal.title', 'home.copyOfClerking.title'] as const;

/** The three tiles of home, in order; each link reads its title, then its description. */
function tiles(page: Page) {
  return page.getByRole('main').getByRole('listitem').getByRole('link');
}

async function expectHomeIn(page: Page, catalog: Catalog, lang: 'pl' | 'en'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.getByRole('heading', { level: 1, name: catalog['home.title'] })).toBeVisible();
  await expect(tiles(page)).toHaveText(TILE_TITLES.map((key) => new RegExp(`^${catalog[key]}`)));
}

function tile(page: Page, key: (typeof TILE_TITLES)[number]) {
  return tiles(page).filter({ hasText: new RegExp(`^${pl[key]}`) });
}

async function openUserMenu(page: Page) {
  await userMenuButton(page, pl).click();
  return page.getByRole('menu', { name: pl['userMenu.label'] });
}

test('a newcomer reads home in Polish, switches to English and back', async ({ page }) => {
  await page.goto('/');
  await answerCookieDialog(page, pl, 'cookies.allowAll');
  await expectHomeIn(page, pl, 'pl');
  // Outside production the footer names the running version (spec section 1).
  await expect(page.getByRole('contentinfo')).toContainText(new RegExp(pl['footer.version'].replace('{version}', '\\S+')));

  // The switch names the other language in that language.
  await page.getByRole('banner').getByRole('button', { name: pl['a11y.language.en'] }).click();
  await expectHomeIn(page, en, 'en');

  await page.getByRole('banner').getByRole('button', { name: en['a11y.language.pl'] }).click();
  await expectHomeIn(page, pl, 'pl');
});

test.describe('signing in from the home tiles', () => {
  test.beforeEach(async ({ page, context, baseURL }) => {
    await skipCookieDialog(context, baseURL);
    await page.goto('/');
    await expectHomeIn(page, pl, 'pl');
  });

  test('the result portal: demo code and run-on birth digits, screening, guest menu, log out', async ({ page }) => {
    await tile(page, 'home.resultPortal.title').click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: pl['login.result.title'] })).toBeVisible();

    await fillResultLogin(page, pl, RESULT_CODE);
    await acceptConsents(page, pl);
    await page.getByRole('button', { name: pl['login.submit'] }).click();
    await expect(page).toHaveURL(/\/screening$/);

    const menu = await openUserMenu(page);
    await expect(menu.getByRole('menuitem')).toHaveText([pl['userMenu.audit'], pl['userMenu.logout']]);
    await menu.getByRole('menuitem', { name: pl['userMenu.logout'] }).click();

    await expect(page).toHaveURL(/\/$/);
    await expectHomeIn(page, pl, 'pl');
    await expect(userMenuButton(page, pl)).toBeHidden();
  });

  test('Anna: the Patient Portal tile leads to her screenings and her named patient menu', async ({ page }) => {
    await tile(page, 'home.patientPortal.title').click();
    await expect(page).toHaveURL(/\/portal\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: pl['login.portal.title'] })).toBeVisible();

    await submitPortalLogin(page, pl, ANNA);
    await expect(page).toHaveURL(/\/screenings$/);

    const trigger = userMenuButton(page, pl);
    await expect(trigger).toHaveText('Anna Nowak');
    const menu = await openUserMenu(page);
    await expect(menu.getByRole('menuitem')).toHaveText([
      pl['userMenu.myScreenings'],
      pl['userMenu.myData'],
      pl['userMenu.uploadScreenings'],
      pl['userMenu.audit'],
      pl['userMenu.logout'],
    ]);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });

  test('Ewa must change her password first: every way out leads back to her profile', async ({ page }) => {
    await tile(page, 'home.patientPortal.title').click();
    await submitPortalLogin(page, pl, EWA);
    await expect(page).toHaveURL(/\/portal\/profile$/);
    await expect(userMenuButton(page, pl)).toHaveText('Ewa Wiśniewska');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();

    // The menu offers the other patient pages, but she is sent straight back to the profile.
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    const menu = await openUserMenu(page);
    await menu.getByRole('menuitem', { name: pl['userMenu.uploadScreenings'] }).click();
    await expect.poll(() => visited).toContain('/portal/upload-screenings');
    await expect(page).toHaveURL(/\/portal\/profile$/);

    await page.goto('/screenings');
    await expect(page).toHaveURL(/\/portal\/profile$/);
  });
});
