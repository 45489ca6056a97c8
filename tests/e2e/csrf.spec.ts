import { expect, test, type Page } from '@playwright/test';
import { pl } from './support/catalogs';
import { RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin } from './support/login-forms';
import { skipCookieDialog } from './support/preferences';

// The cookies behind the CSRF token the page holds are gone or stale before the login is sent.
// The API client asks for a fresh token once and tries again; when that fails too, the translated
// hint to reload shows, never a raw code or a stack trace.

const SESSION_COOKIE = 'portal.sid';

function loginAlert(page: Page) {
  return page.getByRole('region', { name: pl['login.result.title'] }).getByRole('alert');
}

/** A failed attempt makes the page fetch its CSRF token, bound to the current session. */
async function holdTokenOfThisSession(page: Page): Promise<void> {
  await fillResultLogin(page, pl, 'Wrong123');
  await acceptConsents(page, pl);
  await page.getByRole('button', { name: pl['login.submit'] }).click();
  await expect(loginAlert(page)).toHaveText(pl['errors.INVALID_ACCESS_CODE']);
}

async function submitValidLogin(page: Page): Promise<void> {
  await fillResultLogin(page, pl, RESULT_CODE);
  await page.getByRole('button', { name: pl['login.submit'] }).click();
}

/**
 * Signed in: on the screening, with no new failure said on the way (checked as soon as either
 * shows; the alert still holds the failure of the attempt that fetched the token).
 */
async function expectSignedIn(page: Page): Promise<void> {
  const onScreening = page.waitForURL(/\/screening$/).then(() => true);
  const newFailure = loginAlert(page).getByText(/\S/).filter({ hasNotText: pl['errors.INVALID_ACCESS_CODE'] });
  const failureShown = newFailure.waitFor().then(() => false);
  const signedIn = await Promise.race([onScreening, failureShown]);
  // The other one waits on until the test ends; its outcome no longer matters.
  void onScreening.catch(() => undefined);
  void failureShown.catch(() => undefined);
  expect(signedIn ? '' : await newFailure.textContent(), 'the login form says').toBe('');
  await expect(page).toHaveURL(/\/screening$/);
}

/** The statuses of the login requests from here on: a refusal, then the retry's answer. */
function loginStatuses(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/auth/login') statuses.push(response.status());
  });
  return statuses;
}

async function expectNoRawError(page: Page): Promise<void> {
  await expect(page.locator('body')).not.toContainText(/INVALID_CSRF_TOKEN|COOKIES_BLOCKED|Error:|at \S+ \(/);
}

test.beforeEach(async ({ page, context, baseURL }) => {
  await skipCookieDialog(context, baseURL);
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: pl['login.result.title'] })).toBeVisible();
  await holdTokenOfThisSession(page);
});

// The token then arrives without a session cookie (403 COOKIES_BLOCKED): the client fetches a
// fresh token, which sets a new cookie, and tries once more.
test('cookies cleared while the login page is open: the login still succeeds', async ({ page, context }) => {
  await context.clearCookies();
  const statuses = loginStatuses(page);
  await submitValidLogin(page);
  await expectSignedIn(page);
  expect(statuses).toEqual([403, 200]);
  await expectNoRawError(page);
});

test('a session the server no longer knows: the login succeeds at once', async ({ page, context, baseURL }) => {
  // What a browser sends after the server dropped the session (idle timeout, restart): a cookie
  // that names no session. A visitor's token rests on her own cookie, not on a session, so it
  // still holds.
  await context.addCookies([{ name: SESSION_COOKIE, value: 's%3Agone.signature', url: baseURL! }]);
  const statuses = loginStatuses(page);
  await submitValidLogin(page);
  await expectSignedIn(page);
  expect(statuses).toEqual([200]);
  await expectNoRawError(page);
});

test('a token the server keeps refusing: the translated hint to reload', async ({ page }) => {
  await page.route('**/api/auth/login', (route) =>
    route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ code: 'INVALID_CSRF_TOKEN' }) }),
  );
  await submitValidLogin(page);
  await expect(loginAlert(page)).toHaveText(pl['errors.INVALID_CSRF_TOKEN']);
  await expect(page).toHaveURL(/\/login$/);
  await expectNoRawError(page);
});
