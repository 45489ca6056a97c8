import { createHash } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { ANNA, RESULT_BIRTH_DATE, RESULT_CODE, type PortalAccount } from './demo-accounts';

/** Who a journey is: nobody, the demo guest of the result login, or a patient of the portal. */
export type Audience = 'visitor' | 'guest' | 'patient';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Signs in through the API on the given cookie jar (`page.request` shares the page's), for
 * journeys about what comes after the login form. Answers the new CSRF token.
 */
export async function signInThroughApi(
  request: APIRequestContext,
  audience: Exclude<Audience, 'visitor'>,
  account: PortalAccount = ANNA,
): Promise<string> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const consents = { portalTerms: true, policyTerms: true };
  const response =
    audience === 'guest'
      ? await request.post('/api/auth/login', {
          headers: { 'X-CSRF-Token': csrfToken },
          data: { accessCode: RESULT_CODE, birthAt: RESULT_BIRTH_DATE, ...consents },
        })
      : await request.post('/api/auth/portal/login', {
          headers: { 'X-CSRF-Token': csrfToken },
          data: { login: account.login, password: sha256(account.password), ...consents },
        });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}
