import { expect, type Page } from '@playwright/test';
import { axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { catalogs, type Catalog } from './support/catalogs';
import { ANNA } from './support/demo-accounts';
import { submitPortalLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';

/**
 * Copies of medical records ordered on the form and paid at the built-in sandbox checkout (issue
 * 12). Each journey orders for one of Anna's screenings and leaves it with an order, so this file
 * runs on a portal of its own.
 */
const test = testOnOwnServer();

type Lang = 'pl' | 'en';
const SANDBOX = {
  pl: { pay: 'Zapłać', cancel: 'Anuluj płatność', pending: 'Zostaw jako oczekującą' },
  en: { pay: 'Pay', cancel: 'Cancel the payment', pending: 'Leave it pending' },
} as const;

async function signInAsAnna(page: Page, baseURL: string | undefined, lang: Lang, preferences: Partial<Preferences> = {}) {
  await startWithPreferences(page, { lang, ...preferences });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalogs[lang], ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
}

/** Her oldest screening whose orders are all done: the copy-order button is enabled there. */
async function orderableScreening(page: Page): Promise<number> {
  const { items } = (await (await page.request.get('/api/screenings')).json()) as {
    items: { screening: { id: number }; orders: { done: boolean }[] }[];
  };
  const orderable = items.filter((item) => item.orders.every((order) => order.done));
  if (orderable.length === 0) throw new Error('no screening to order a copy for');
  return orderable[orderable.length - 1]!.screening.id;
}

/** From the screenings list, as she would: the row's order button opens the form. */
async function openOrderForm(page: Page, catalog: Catalog, screeningId: number) {
  const button = page.locator(`a[href="/order-screening-copy/${screeningId}"]`);
  if (await button.isVisible()) await button.click();
  else await page.goto(`/order-screening-copy/${screeningId}`);
  await expect(page.getByRole('heading', { level: 1, name: catalog['orderCopy.title'] })).toBeVisible();
}

async function tick(page: Page, name: string) {
  const checkbox = page.getByRole('checkbox', { name, exact: true });
  await checkbox.press('Space');
  await expect(checkbox).toBeChecked();
}

async function chooseReceiver(page: Page, catalog: Catalog, receiver: 0 | 1 | 2) {
  await page
    .getByRole('radiogroup', { name: catalog['orderCopy.docReceiver.label'] })
    .getByRole('radio', { name: catalog[`orderCopy.docReceiver.${receiver}`] })
    .press('Space');
}

async function acceptStatements(page: Page, catalog: Catalog) {
  await tick(page, catalog['orderCopy.statement1']);
  await tick(page, catalog['orderCopy.statement2']);
}

/** "Place the order", or "... and pay" once the images (which cost the fee) are asked for. */
async function submit(page: Page, catalog: Catalog) {
  await page.getByRole('button', { name: new RegExp(`^${catalog['orderCopy.submit']}`) }).click();
}

async function atSandbox(page: Page, lang: Lang, choice: keyof (typeof SANDBOX)['pl']) {
  await expect(page).toHaveURL(/\/payment-sandbox\//);
  await page.getByRole('button', { name: SANDBOX[lang][choice], exact: true }).click();
}

for (const lang of ['pl', 'en'] as const) {
  const catalog = catalogs[lang];

  test(`${lang}: Anna orders her images sent by post, finds her town without Polish letters and pays`, async ({ page, baseURL }) => {
    await signInAsAnna(page, baseURL, lang);
    const screeningId = await orderableScreening(page);
    await openOrderForm(page, catalog, screeningId);

    // Every message at once, in place.
    await submit(page, catalog);
    await expect(page.getByText(catalog['orderCopy.validation.docReceiver.required'])).toBeVisible();
    await expect(page.getByText(catalog['orderCopy.validation.statement1.required'])).toBeVisible();
    await expect(page.getByText(catalog['orderCopy.validation.statement2.required'])).toBeVisible();

    await tick(page, catalog['orderCopy.requestType.digital_images']);
    await expect(page.getByText(/21,00|21\.00/)).toBeVisible();
    await chooseReceiver(page, catalog, 1);
    await submit(page, catalog);
    await expect(page.getByText(catalog['orderCopy.validation.province.required'])).toBeVisible();
    await expect(page.getByText(catalog['orderCopy.validation.postalCode.required'])).toBeVisible();

    const province = page.getByRole('combobox', { name: catalog['orderCopy.province.label'] });
    await province.fill('ŁÓDZ');
    await page.getByRole('option', { name: 'łódzkie' }).click();
    const city = page.getByRole('combobox', { name: catalog['orderCopy.city.label'] });
    await city.fill('lodz');
    await page.getByRole('option', { name: /^Łódź/ }).first().click();
    await expect(city).toHaveValue('Łódź');

    const postalCode = page.getByRole('textbox', { name: catalog['orderCopy.postalCode.label'] });
    await postalCode.pressSequentially('9000123');
    await expect(postalCode).toHaveValue('90-001');
    await page.getByRole('textbox', { name: catalog['orderCopy.street.label'] }).fill('Piotrkowska');
    await page.getByRole('textbox', { name: catalog['orderCopy.houseNumber.label'] }).fill('104');
    await acceptStatements(page, catalog);
    expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

    await submit(page, catalog);
    await atSandbox(page, lang, 'pay');
    await expect(page).toHaveURL(new RegExp(`/payment\\?paymentId=\\d+&screeningId=${screeningId}`));
    await expect(page.getByText(catalog['orders.payment.completed'])).toBeVisible({ timeout: 15_000 });
    expect(await axeViolations(page)).toEqual([]);

    // The list shows the copy as paid, and ordering another waits for this one.
    await page.goto('/screenings');
    await expect(
      page
        .getByRole('row')
        .filter({ has: page.getByRole('gridcell') })
        .first(),
    ).toBeVisible();
    // A row is keyed by its screening's id; five a page, newest first, so an older one is on the next.
    const row = page.locator(`tr[data-key="${screeningId}"]`);
    if ((await row.count()) === 0) await page.getByRole('button', { name: catalog['pagination.next'] }).click();
    await expect(row).toContainText(catalog['screenings.payment.COMPLETED']);
    await expect(row.getByRole('link', { name: catalog['screenings.order.button'] })).toHaveAttribute('aria-disabled', 'true');
  });
}

test('pl: a privileged pick-up refuses a wrong ID number, then takes the right one', async ({ page, baseURL }) => {
  const catalog = catalogs.pl;
  await signInAsAnna(page, baseURL, 'pl');
  const screeningId = await orderableScreening(page);
  await openOrderForm(page, catalog, screeningId);
  await tick(page, catalog['orderCopy.requestType.digital_images']);
  await chooseReceiver(page, catalog, 2);
  await expect(page.getByRole('combobox', { name: catalog['orderCopy.province.label'] })).toHaveCount(0);
  await page.getByRole('textbox', { name: catalog['orderCopy.privilegedPerson.name.label'] }).fill('Jan Nowak');
  const id = page.getByRole('textbox', { name: catalog['orderCopy.privilegedPerson.id.label'] });
  await id.fill('aba300001');
  await acceptStatements(page, catalog);
  await submit(page, catalog);
  await expect(page.getByText(catalog['orderCopy.validation.privilegedPerson.id.invalid'])).toBeVisible();
  await expect(id).toBeFocused();
  await id.fill('ABA300000');
  await submit(page, catalog);
  await atSandbox(page, 'pl', 'pay');
  await expect(page.getByText(catalog['orders.payment.completed'])).toBeVisible({ timeout: 15_000 });
});

test('en: a cancelled payment says so and frees the order; a pending one waits for its reload', async ({ page, baseURL }) => {
  const catalog = catalogs.en;
  await signInAsAnna(page, baseURL, 'en');
  const screeningId = await orderableScreening(page);
  await openOrderForm(page, catalog, screeningId);
  await tick(page, catalog['orderCopy.requestType.digital_images']);
  await chooseReceiver(page, catalog, 0);
  await acceptStatements(page, catalog);
  await submit(page, catalog);
  await atSandbox(page, 'en', 'cancel');
  await expect(page).toHaveURL(/[?&]error=/);
  await expect(page.getByText(catalog['orders.payment.cancelled'])).toBeVisible();

  // Cancelled is done: she may order again, and this time leaves the payment pending.
  await openOrderForm(page, catalog, screeningId);
  await tick(page, catalog['orderCopy.requestType.digital_images']);
  await chooseReceiver(page, catalog, 0);
  await acceptStatements(page, catalog);
  await submit(page, catalog);
  await atSandbox(page, 'en', 'pending');
  await expect(page.getByText(catalog['orders.payment.pending'])).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: catalog['orders.payment.reload'] }).click();
  await expect(page.getByText(catalog['orders.payment.pending'])).toBeVisible();
  // Meanwhile a second copy order of this screening is refused.
  await page.goto(`/order-screening-copy/${screeningId}`);
  await expect(page.getByText(catalog['errors.ORDER_ALREADY_EXISTS'])).toBeVisible();
});

test('the form fits a 360 px phone at text size 160% in the strongest contrast theme', async ({ page, baseURL }) => {
  const catalog = catalogs.pl;
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAsAnna(page, baseURL, 'pl', { theme: 'black-pink', fontScale: 1.6 });
  const screeningId = await orderableScreening(page);
  await page.goto(`/order-screening-copy/${screeningId}`);
  await chooseReceiver(page, catalog, 1);
  await expect(page.getByRole('combobox', { name: catalog['orderCopy.province.label'] })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
});
