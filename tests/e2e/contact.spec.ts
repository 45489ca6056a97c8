import { expect, test, type Page } from '@playwright/test';
import { catalogs, type Catalog } from './support/catalogs';
import { expectAppStarted } from './support/keyboard';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

// The portal takes five messages per IP an hour and every journey here comes from localhost:
// keep the specs of this file at three sent messages at most.

const REQUIRED_MESSAGES = [
  'contact.validation.firstName.required',
  'contact.validation.lastName.required',
  'contact.validation.phone.required',
  'contact.validation.content.required',
  'contact.validation.consent.required',
] as const;

function form(page: Page, catalog: Catalog) {
  const main = page.getByRole('main');
  return {
    main,
    firstName: main.getByRole('textbox', { name: catalog['contact.firstName.label'] }),
    lastName: main.getByRole('textbox', { name: catalog['contact.lastName.label'] }),
    email: main.getByRole('textbox', { name: catalog['contact.email.label'] }),
    phone: main.getByRole('textbox', { name: catalog['contact.phone.label'] }),
    content: main.getByRole('textbox', { name: catalog['contact.content.label'] }),
    consent: main.getByRole('checkbox', { name: new RegExp(`^${catalog['contact.consent'].split('<link>')[0]}`) }),
    send: main.getByRole('button', { name: catalog['contact.submit'] }),
  };
}

async function expectSuccessPage(page: Page, catalog: Catalog) {
  await expect(page).toHaveURL(/\/contact\/success$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: catalog['contact.submitted.title'] })).toBeVisible();
  await expect(main.getByText(catalog['contact.success'])).toBeVisible();
  // The same words as a notification, which outlives the page change.
  await expect(page.locator('.notification--success')).toContainText(catalog['contact.success']);
  await main.getByRole('link', { name: catalog['nav.backToHome'] }).click();
  await expect(page).toHaveURL(/\/$/);
}

for (const lang of ['pl', 'en'] as const) {
  const catalog = catalogs[lang];

  test(`contact form in ${lang}: required messages, the foreign-number warning, then the success page`, async ({
    page,
    context,
    baseURL,
  }) => {
    await skipCookieDialog(context, baseURL);
    // English runs in a dark contrast theme, so the warning and the counter are seen there too.
    await startWithPreferences(page, lang === 'en' ? { lang, theme: 'pink-black' } : { lang });
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: catalog['footer.contact'] }).click();
    await expect(page.getByRole('heading', { level: 1, name: catalog['contact.title'] })).toBeVisible();
    const f = form(page, catalog);

    await f.send.click();
    for (const key of REQUIRED_MESSAGES) await expect(f.main.getByText(catalog[key])).toBeVisible();
    await expect(f.firstName).toBeFocused();

    await f.firstName.fill('Maria');
    await f.lastName.fill('Kowalska');
    await f.email.fill('maria.kowalska@example.com');
    await f.phone.pressSequentially('+49 170 1234567');
    const warning = f.main.getByRole('status').filter({ hasText: catalog['contact.phone.notPolish'] });
    await expect(warning).toBeVisible();
    await f.content.fill('Proszę o kontakt w sprawie terminu badania.');
    await expect(f.main.getByText('43 / 300')).toBeVisible();
    // A mouse user clicks the drawn box, which covers react-aria's visually hidden input.
    await f.main.locator('.checkbox__box').click();
    await expect(f.consent).toBeChecked();
    for (const key of REQUIRED_MESSAGES) await expect(f.main.getByText(catalog[key])).toHaveCount(0);

    // The warning does not hold the message back.
    await f.send.click();
    await expectSuccessPage(page, catalog);
  });
}

test('a Polish number gets no warning; an invalid one is refused when the field is left', async ({ page, context, baseURL }) => {
  await skipCookieDialog(context, baseURL);
  await startWithPreferences(page, { lang: 'pl' });
  const catalog = catalogs.pl;
  await page.goto('/contact');
  const f = form(page, catalog);

  await f.phone.pressSequentially('600 100 200');
  await expect(f.main.getByText(catalog['contact.phone.notPolish'])).toHaveCount(0);
  await f.phone.fill('123 45');
  await f.phone.blur();
  await expect(f.main.getByText(catalog['contact.validation.phone.invalid'])).toBeVisible();
  await expect(f.phone).toHaveAttribute('aria-invalid', 'true');

  await f.content.fill('x'.repeat(320));
  await expect(f.content).toHaveValue('x'.repeat(300));
  await expect(f.main.getByText('300 / 300')).toBeVisible();
});

test('at 360 px with text at 160% the form fits and is sent with the keyboard alone', async ({ page, context, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await skipCookieDialog(context, baseURL);
  await startWithPreferences(page, { lang: 'pl', fontScale: 1.6 });
  const catalog = catalogs.pl;
  await page.goto('/contact');
  const f = form(page, catalog);
  await expect(f.firstName).toBeVisible();
  await expectAppStarted(page);
  const scrollWidth = await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(360);

  await f.firstName.focus();
  await page.keyboard.type('Jan');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Nowak');
  await page.keyboard.press('Tab');
  await expect(f.email).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('+48 600 100 200');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Dzień dobry, proszę o telefon.');
  await page.keyboard.press('Tab');
  await expect(f.consent).toBeFocused();
  await page.keyboard.press('Space');
  await expect(f.consent).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(f.main.getByRole('link', { name: /polityką prywatności/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(f.send).toBeFocused();
  await page.keyboard.press('Enter');
  await expectSuccessPage(page, catalog);
});
