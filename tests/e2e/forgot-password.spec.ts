import { test as base, expect, type Page } from '@playwright/test';
import { startTestSmtp, type TestSmtp } from '../support/test-smtp';
import { en, pl, type Catalog } from './support/catalogs';
import { ANNA } from './support/demo-accounts';
import { submitPortalLogin } from './support/login-forms';
import { startOwnServer, type OwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * Forgot password by email, with the mail caught by a real SMTP server started here. Anna's
 * password changes, so this file runs on a portal of its own whose mail goes to that server.
 */
let server: OwnServer | undefined;
let smtp: TestSmtp | undefined;
/** The link of the first journey, used again to see the "used" warning. */
let spentLink: string | undefined;

const test = base.extend({
  // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(server?.baseURL),
});

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startTestSmtp();
  // startOwnServer hands its environment to the portal it spawns; SMTP_URL reaches it that way.
  const previous = process.env.SMTP_URL;
  process.env.SMTP_URL = smtp.url;
  try {
    server = await startOwnServer();
  } finally {
    if (previous === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = previous;
  }
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const NEW_PASSWORD = 'Rzodkiewka w ogrodzie 9';

async function open(page: Page, catalog: Catalog, baseURL: string | undefined, path: string) {
  await startWithPreferences(page, { lang: catalog === en ? 'en' : 'pl' });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto(path);
}

test('Anna forgets her password, gets a link by email and sets a new one', async ({ page, baseURL }) => {
  await open(page, pl, baseURL, '/portal/login');
  await page.getByRole('link', { name: pl['login.forgotPassword'] }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByRole('heading', { level: 1, name: pl['passwordReset.title'] })).toBeVisible();

  const email = page.getByLabel(pl['passwordReset.email.label']);
  await email.fill('anna.nowak@');
  await page.getByRole('button', { name: pl['passwordReset.submit'] }).click();
  await expect(page.getByText(pl['passwordReset.validation.emailInvalid'])).toBeVisible();
  await email.fill(ANNA.login);
  await page.getByRole('button', { name: pl['passwordReset.submit'] }).click();

  await expect(page).toHaveURL(/\/reset-password\/sent$/);
  await expect(page.getByRole('heading', { level: 1, name: pl['passwordReset.sent.title'] })).toBeVisible();
  await expect(page.getByRole('link', { name: pl['passwordReset.backToLogin'] })).toHaveAttribute('href', '/portal/login');

  const mail = await smtp!.waitForMail(ANNA.login, 15_000);
  expect(mail.subject).toBe('Ustawienie nowego hasła w portalu pacjenta');
  const link = /http:\/\/localhost:\d+\/change-password\/[0-9a-f-]{36}/.exec(mail.text)?.[0];
  expect(link, 'the mail holds a link to this portal').toBeDefined();
  expect(new URL(link!).origin).toBe(new URL(baseURL!).origin);
  spentLink = link;

  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1, name: pl['passwordReset.token.title'] })).toBeVisible();
  const password = page.getByLabel(pl['passwordReset.token.password'], { exact: true });
  const confirm = page.getByLabel(pl['passwordReset.token.confirm']);
  await password.fill('haslo');
  await confirm.fill('haslo');
  await page.getByRole('button', { name: pl['passwordReset.token.submit'] }).click();
  await expect(page.getByText(pl['validation.password.tooShort'])).toBeVisible();
  await password.fill(NEW_PASSWORD);
  await confirm.fill(NEW_PASSWORD);
  await page.getByRole('button', { name: pl['passwordReset.token.submit'] }).click();

  await expect(page).toHaveURL(/\/password-changed$/);
  await expect(page.getByRole('heading', { level: 1, name: pl['passwordReset.changed.title'] })).toBeVisible();
  await page.getByRole('link', { name: pl['passwordReset.changed.toLogin'] }).click();
  await expect(page).toHaveURL(/\/portal\/login$/);

  await submitPortalLogin(page, pl, ANNA);
  await expect(page.getByText(pl['errors.LOGIN_FAILED'])).toBeVisible();
  await page.reload();
  await submitPortalLogin(page, pl, { login: ANNA.login, password: NEW_PASSWORD });
  await expect(page).toHaveURL(/\/screenings$/);
});

async function expectWarning(page: Page, message: string) {
  await expect(page.getByRole('heading', { level: 1, name: en['passwordReset.token.refusedTitle'] })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  await expect(page.getByRole('link', { name: en['passwordReset.token.newLink'] })).toHaveAttribute('href', '/reset-password');
  await expect(page.getByRole('link', { name: en['nav.backToHome'] })).toHaveAttribute('href', '/');
}

test('a link already used shows the warning with the way to a new one', async ({ page, baseURL }) => {
  test.skip(!spentLink, 'needs the link of the first journey');
  await open(page, en, baseURL, new URL(spentLink!).pathname);
  await expectWarning(page, en['errors.USED_TOKEN']);

  await page.getByRole('link', { name: en['passwordReset.token.newLink'] }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
});

test('a last segment that is no token, and an unknown token, show the invalid-link warning', async ({ page, baseURL }) => {
  await open(page, en, baseURL, '/change-password/not-a-token');
  await expectWarning(page, en['errors.INVALID_TOKEN']);

  await page.goto('/change-password/0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60');
  await expectWarning(page, en['errors.INVALID_TOKEN']);
  await page.getByRole('link', { name: en['nav.backToHome'] }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the drawn "checking the link" page holds its spinner still until the app has taken over', async ({ page, baseURL }) => {
  await startWithPreferences(page, { lang: 'pl' });
  await skipCookieDialog(page.context(), baseURL);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // The app's entry module (index-<hash>.js), held back so the page shows what its HTML alone does.
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/change-password/0b6f4a52-3f4e-4c8e-9d7a-1c2b3d4e5f60', { waitUntil: 'commit' });

  await expect(page.getByText(pl['passwordReset.token.checking'])).toBeVisible();
  await expect(page.locator('#root .spinner')).toBeVisible();
  // A spinning one has the browser draw a frame every 16 ms all through the app's start (issue 16).
  expect(await page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === 'running').length)).toBe(0);

  release();
  await expect(page.getByRole('alert').filter({ hasText: pl['errors.INVALID_TOKEN'] })).toBeVisible();
});
