import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { catalogs, type Catalog } from './support/catalogs';
import { ANNA, RESULT_CODE, type PortalAccount } from './support/demo-accounts';
import { acceptConsents, fillResultLogin, submitPortalLogin, userMenuButton } from './support/login-forms';
import { skipCookieDialog, startWithPreferences } from './support/preferences';
import { signInThroughApi } from './support/api-sign-in';

test.beforeEach(async ({ context, baseURL }) => {
  await skipCookieDialog(context, baseURL);
});

/** A login made outside the browser (its own cookie jar): one more LOGIN_PORTAL entry in Anna's log. */
async function loginThroughApi(request: APIRequestContext, account: PortalAccount): Promise<void> {
  const csrfToken = await signInThroughApi(request, 'patient', account);
  await request.get('/api/auth/logout', { headers: { 'X-CSRF-Token': csrfToken } });
}

async function openAuditFromUserMenu(page: Page, catalog: Catalog): Promise<void> {
  await userMenuButton(page, catalog).click();
  await page.getByRole('menuitem', { name: catalog['userMenu.audit'] }).click();
}

function auditTable(page: Page, catalog: Catalog) {
  return page.getByRole('grid', { name: catalog['audit.table.label'] });
}

/** Rows of the table body (the first row holds the column headers). */
function entryRows(page: Page, catalog: Catalog) {
  return auditTable(page, catalog)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') });
}

function typeGroup(page: Page, catalog: Catalog, group: keyof Catalog) {
  return page.getByRole('group', { name: catalog['audit.filters.types'] }).getByRole('checkbox', { name: catalog[group] });
}

/** Types a day into the picker's segments, which follow the locale's order (pl: dd.mm.rrrr, en: mm/dd/yyyy). */
async function chooseDays(page: Page, catalog: Catalog, lang: 'pl' | 'en', start: string, end: string): Promise<void> {
  const picker = page.getByRole('group', { name: catalog['audit.filters.dateRange'] });
  const typed = (day: string) => {
    const [year, month, date] = day.split('-');
    return lang === 'pl' ? `${date}${month}${year}` : `${month}${date}${year}`;
  };
  await picker.getByRole('spinbutton').first().click();
  await page.keyboard.type(typed(start) + typed(end));
}

function localDay(offsetDays = 0): string {
  const day = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(day);
}

for (const lang of ['pl', 'en'] as const) {
  const catalog = catalogs[lang];

  test(`${lang}: Anna sees her login in the audit log and filters it by type and date`, async ({ page, request }) => {
    await startWithPreferences(page, { lang });
    await loginThroughApi(request, ANNA);
    await page.goto('/portal/login');
    const browserReport = page.waitForRequest((sent) => sent.method() === 'POST' && sent.url().endsWith('/api/audit/browser'));
    await submitPortalLogin(page, catalog, ANNA);
    await expect(page).toHaveURL(/\/screenings$/);
    expect((await browserReport).postDataJSON()).toEqual({
      browserName: expect.stringMatching(/\S/),
      browserVersion: expect.stringMatching(/^\d/),
      os: expect.stringMatching(/\S/),
      resolutionX: expect.any(Number),
      resolutionY: expect.any(Number),
    });

    await openAuditFromUserMenu(page, catalog);
    await expect(page).toHaveURL(/\/portal\/audit$/);
    await expect(page.getByRole('heading', { level: 1, name: catalog['audit.title.portal'] })).toBeVisible();

    // Newest first: her start page read the screenings list right after the login.
    const loginType = catalog['audit.type.LOGIN_PORTAL'];
    await expect(entryRows(page, catalog).first().getByRole('gridcell').nth(0)).toHaveText(catalog['audit.type.SCREENING']);
    const login = entryRows(page, catalog).filter({ hasText: loginType }).first();
    await expect(login.getByRole('gridcell').nth(0)).toHaveText(loginType);
    await expect(login.getByRole('gridcell').nth(1)).toHaveText(new RegExp(`^${loginType}, IP \\S+$`));

    // A group with no entries of hers: the empty state.
    await typeGroup(page, catalog, 'audit.group.LOGIN_RESULT').press('Space');
    await expect(page.getByText(catalog['audit.empty'])).toBeVisible();
    await expect(page).toHaveURL(/types=LOGIN_RESULT/);

    await typeGroup(page, catalog, 'audit.group.LOGIN_RESULT').press('Space');
    await typeGroup(page, catalog, 'audit.group.LOGIN_PORTAL').press('Space');
    await expect(entryRows(page, catalog).first()).toContainText(loginType);
    await expect(entryRows(page, catalog).filter({ hasNotText: new RegExp(loginType) })).toHaveCount(0);

    // Days before today hold none of today's logins; a range ending today does.
    await chooseDays(page, catalog, lang, '2020-01-01', '2020-12-31');
    await expect(page).toHaveURL(/from=2020-01-01&to=2020-12-31/);
    await expect(page.getByText(catalog['audit.empty'])).toBeVisible();

    await chooseDays(page, catalog, lang, localDay(-7), localDay());
    await expect(entryRows(page, catalog).first()).toContainText(loginType);

    // The filters live in the URL: a reload keeps them.
    await page.reload();
    await expect(typeGroup(page, catalog, 'audit.group.LOGIN_PORTAL')).toBeChecked();
    await expect(entryRows(page, catalog).first()).toContainText(loginType);
    await expect(page).toHaveURL(new RegExp(`from=${localDay(-7)}&to=${localDay()}&types=LOGIN_PORTAL`));

    await page.getByRole('button', { name: catalog['audit.filters.clear'] }).click();
    await expect(page).toHaveURL(/\/portal\/audit$/);
  });

  test(`${lang}: Anna turns the pages of her audit log`, async ({ page, request }) => {
    await startWithPreferences(page, { lang });
    // Eleven more logins: more than one page of ten.
    for (let login = 0; login < 11; login++) await loginThroughApi(request, ANNA);
    await page.goto('/portal/login');
    await submitPortalLogin(page, catalog, ANNA);
    await expect(page).toHaveURL(/\/screenings$/);
    await page.goto('/portal/audit');

    await expect(entryRows(page, catalog)).toHaveCount(10);
    const status = page.getByRole('navigation', { name: catalog['pagination.label'] }).getByRole('status');
    await expect(status).toHaveText(new RegExp(catalog['pagination.status'].replace('{page}', '1').replace('{pages}', '\\d+')));
    const previous = page.getByRole('button', { name: catalog['pagination.previous'] });
    await expect(previous).toBeDisabled();

    await page.getByRole('button', { name: catalog['pagination.next'] }).click();
    await expect(status).toHaveText(new RegExp(catalog['pagination.status'].replace('{page}', '2').replace('{pages}', '\\d+')));
    await expect(page).toHaveURL(/\?page=2$/);
    await expect(previous).toBeEnabled();
    await page.goBack();
    await expect(status).toHaveText(new RegExp(catalog['pagination.status'].replace('{page}', '1').replace('{pages}', '\\d+')));
  });
}

test('a result-portal guest sees the result-portal heading and her login on /audit', async ({ page }) => {
  const catalog = catalogs.en;
  await startWithPreferences(page, { lang: 'en' });
  await page.goto('/login');
  await fillResultLogin(page, catalog, RESULT_CODE);
  await acceptConsents(page, catalog);
  await page.getByRole('button', { name: catalog['login.submit'] }).click();
  await expect(page).toHaveURL(/\/screening$/);

  await openAuditFromUserMenu(page, catalog);
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole('heading', { level: 1, name: catalog['audit.title.result'] })).toBeVisible();
  // Opening the result page after the login is audited too (RESULT), so the login need not be the newest row.
  await expect(entryRows(page, catalog).filter({ hasText: catalog['audit.type.LOGIN_RESULT'] }).first()).toBeVisible();
});

test('the audit page and its open calendar pass axe-core', async ({ page }) => {
  const catalog = catalogs.pl;
  await startWithPreferences(page, { lang: 'pl' });
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
  await page.goto('/portal/audit');
  await expect(entryRows(page, catalog).first()).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByRole('group', { name: catalog['audit.filters.dateRange'] }).getByRole('button').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test('a failed load says so on the page and in a notification', async ({ page }) => {
  const catalog = catalogs.en;
  await startWithPreferences(page, { lang: 'en' });
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalog, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
  await page.route('**/api/audit?*', (route) => route.fulfill({ status: 500, json: { code: 'INTERNAL' } }));
  await page.goto('/portal/audit');

  await expect(page.getByRole('alert').filter({ hasText: catalog['audit.loadFailed'] })).toBeVisible();
  await expect(page.getByText(catalog['audit.fetchError'])).toBeVisible();
});
