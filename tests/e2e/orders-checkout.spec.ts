import { expect, type Browser, type Page } from '@playwright/test';
import { axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { catalogs, type Catalog } from './support/catalogs';
import { ANNA, EWA, type PortalAccount } from './support/demo-accounts';
import { submitPortalLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * Translated descriptions and consultations bought and paid at the built-in sandbox checkout
 * (issue 12). Orders change Anna's screenings list and slots other journeys would see, so this
 * file runs on a portal of its own, where an unpaid consultation holds its slot one minute.
 */
const test = testOnOwnServer({ CONSULTATION_HOLD_MINUTES: '1', ORDER_EXPIRY_SWEEP_SECONDS: '2' });

const SANDBOX_TEXTS = { pl: { pay: 'Zapłać' }, en: { pay: 'Pay' } } as const;
const EWA_NEW_PASSWORD = 'Nowe haslo do portalu 9';

type Lang = 'pl' | 'en';
type ListItem = { screening: { id: number }; documents: { type: string }[]; orders: { productCode: string; done: boolean }[] };

async function signIn(page: Page, baseURL: string | undefined, lang: Lang, account: PortalAccount) {
  await startWithPreferences(page, { lang });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, catalogs[lang], account);
}

/** Her oldest screening with a description and no open order of `productCode` (one per product at a time). */
async function screeningToOrder(page: Page, productCode: string): Promise<number> {
  const response = await page.request.get('/api/screenings');
  const { items } = (await response.json()) as { items: ListItem[] };
  const free = items.filter(
    (item) =>
      item.documents.some((document) => document.type === 'description') &&
      !item.orders.some((order) => order.productCode === productCode && !order.done),
  );
  if (free.length === 0) throw new Error(`no screening to order ${productCode} for`);
  return free[free.length - 1]!.screening.id;
}

/** On the sandbox's hosted page: the amount is shown, and the patient chooses. */
async function payAtSandbox(page: Page, lang: Lang) {
  await expect(page).toHaveURL(/\/payment-sandbox\//);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: SANDBOX_TEXTS[lang].pay, exact: true }).click();
}

/** The order status page settles on "paid" once the sandbox's signed notification has arrived. */
async function expectPaid(page: Page, catalog: Catalog) {
  await expect(page).toHaveURL(/\/order\/\d+\/status$/);
  const paid = page.getByText(catalog['orders.status.completed']);
  await expect(async () => {
    const refresh = page.getByRole('button', { name: catalog['orders.status.refresh'] });
    if (await refresh.isVisible()) await refresh.click();
    await expect(paid).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText(/MP-\d{6}/)).toBeVisible();
}

for (const lang of ['pl', 'en'] as const) {
  const catalog = catalogs[lang];

  test(`${lang}: Anna buys a translated description and pays for it in the sandbox`, async ({ page, baseURL }) => {
    await signIn(page, baseURL, lang, ANNA);
    await expect(page).toHaveURL(/\/screenings$/);
    const screeningId = await screeningToOrder(page, lang === 'pl' ? 'translation-en' : 'translation-de');
    await page.goto(`/screening/${screeningId}`);
    await page.getByRole('link', { name: catalog['result.orders.buy'] }).click();
    await expect(page).toHaveURL(new RegExp(`/buy-consultation/screening/${screeningId}$`));

    const products = page.getByRole('radiogroup', { name: catalog['orders.checkout.products'] });
    const translation = lang === 'pl' ? 'Tłumaczenie opisu badania na język angielski' : 'Translation of the report into German';
    await products.getByRole('radio', { name: new RegExp(translation) }).press('Space');
    const summary = page.getByRole('region', { name: catalog['orders.checkout.summary'] });
    await expect(summary).toContainText(translation);
    await expect(summary).toContainText('Anna');
    await expect(summary).toContainText(ANNA.login);

    expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);
    await page.getByRole('button', { name: catalog['orders.pay'], exact: true }).click();
    await payAtSandbox(page, lang);
    await expectPaid(page, catalog);
    expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

    // The screenings list shows the order as paid.
    await page.goto('/screenings');
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('gridcell') })
      .filter({ hasText: catalog['screenings.payment.COMPLETED'] });
    await expect(row.first()).toBeVisible();
  });
}

async function newPatientPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

/** Ewa must change her password before anything else; she does, and is then a patient like Anna. */
async function signInAsEwa(page: Page, baseURL: string | undefined) {
  const catalog = catalogs.pl;
  await signIn(page, baseURL, 'pl', EWA);
  await expect(page).toHaveURL(/\/portal\/profile$/);
  const form = page.getByRole('region', { name: catalog['profile.password.title'] });
  await form.getByLabel(catalog['profile.password.old']).fill(EWA.password);
  await form.getByLabel(catalog['profile.password.new'], { exact: true }).fill(EWA_NEW_PASSWORD);
  await form.getByLabel(catalog['profile.password.confirm']).fill(EWA_NEW_PASSWORD);
  await form.getByRole('button', { name: catalog['profile.password.submit'] }).click();
  await expect(page.getByText(catalog['profile.password.changed'])).toBeVisible();
}

async function consultationSlots(page: Page, catalog: Catalog, screeningId: number) {
  await page.goto(`/buy-consultation/screening/${screeningId}`);
  const products = page.getByRole('radiogroup', { name: catalog['orders.checkout.products'] });
  await products.getByRole('radio', { name: /Konsultacja telefoniczna/ }).press('Space');
  const slots = page.getByRole('radiogroup', { name: catalog['orders.checkout.slots'] });
  await expect(slots.getByRole('radio').first()).toBeVisible();
  return slots;
}

test('a consultation slot is held for the patient paying, hidden from another, and freed when the hold runs out', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const catalog = catalogs.pl;
  await signIn(page, baseURL, 'pl', ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
  const annaScreening = await screeningToOrder(page, 'radiologist-consultation');
  const annaSlots = await consultationSlots(page, catalog, annaScreening);
  const heldSlot = annaSlots.getByRole('radio').first();
  // The radio's accessible name is its label's text: date, length and radiologist.
  const heldLabel = (await heldSlot.evaluate((input) => input.closest('label')?.textContent ?? '')).trim();
  expect(heldLabel).not.toBe('');
  await heldSlot.press('Space');
  const summary = page.getByRole('region', { name: catalog['orders.checkout.summary'] });
  await expect(summary).toContainText('Anna Nowak');
  await page.getByRole('button', { name: catalog['orders.pay'], exact: true }).click();
  // She reaches the provider's page and leaves it without paying: the slot stays hers meanwhile.
  await expect(page).toHaveURL(/\/payment-sandbox\//);
  const orderStatusUrl = await page.evaluate(async () => {
    const response = await fetch('/api/screenings', { credentials: 'same-origin' });
    const { items } = (await response.json()) as { items: { orders: { id: number }[] }[] };
    const ids = items.flatMap((item) => item.orders.map((order) => order.id));
    return `/order/${Math.max(...ids)}/status`;
  });

  const ewa = await newPatientPage(browser, baseURL);
  await signInAsEwa(ewa, baseURL);
  const ewaScreening = await screeningToOrder(ewa, 'radiologist-consultation');
  const ewaSlots = await consultationSlots(ewa, catalog, ewaScreening);
  await expect(ewaSlots.getByRole('radio', { name: heldLabel, exact: true })).toHaveCount(0);

  // The hold runs out (one minute here): her order is cancelled and the slot is free again.
  await page.goto(orderStatusUrl);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(catalog['orders.status.canceled'])).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await ewa.reload();
  const freed = (await consultationSlots(ewa, catalog, ewaScreening)).getByRole('radio', { name: heldLabel, exact: true });
  await expect(freed).toHaveCount(1);
  await freed.press('Space');
  await ewa.getByRole('button', { name: catalog['orders.pay'], exact: true }).click();
  await payAtSandbox(ewa, 'pl');
  await expectPaid(ewa, catalog);
  await ewa.context().close();
});
