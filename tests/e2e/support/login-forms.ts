import { expect, type Page } from '@playwright/test';
import type { Catalog } from './catalogs';
import { RESULT_BIRTH_DATE, RESULT_BIRTH_DIGITS, type PortalAccount } from './demo-accounts';

/** The visible part of a consent label: the text of its <link> chunk. */
function linkText(message: string): string {
  const linked = /<link>(.*?)<\/link>/.exec(message);
  if (!linked?.[1]) throw new Error(`No <link> in "${message}"`);
  return linked[1];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function consentCheckboxes(page: Page, catalog: Catalog) {
  return [catalog['login.portalTerms'], catalog['login.policyTerms']].map((message) =>
    page.getByRole('checkbox', { name: new RegExp(escapeRegExp(linkText(message))) }),
  );
}

/** Ticked with the keyboard: the styled box covers react-aria's visually hidden input. */
export async function acceptConsents(page: Page, catalog: Catalog): Promise<void> {
  for (const checkbox of consentCheckboxes(page, catalog)) {
    await checkbox.press('Space');
    await expect(checkbox).toBeChecked();
  }
}

/** Fills the result login (on /login) with a code and the demo birth date typed as run-on digits. */
export async function fillResultLogin(page: Page, catalog: Catalog, code: string): Promise<void> {
  await page.getByLabel(catalog['login.accessCode.label'], { exact: true }).fill(code);
  const birthAt = page.getByLabel(catalog['login.birthAt.label'], { exact: true });
  await birthAt.clear();
  await birthAt.pressSequentially(RESULT_BIRTH_DIGITS);
  await expect(birthAt).toHaveValue(RESULT_BIRTH_DATE);
}

/** Fills the patient login (on /portal/login), consents included, and submits it. */
export async function submitPortalLogin(page: Page, catalog: Catalog, account: PortalAccount): Promise<void> {
  await page.getByLabel(catalog['login.login.label']).fill(account.login);
  await page.getByLabel(catalog['login.password.label'], { exact: true }).fill(account.password);
  await acceptConsents(page, catalog);
  await page.getByRole('button', { name: catalog['login.submit'] }).click();
}

export function userMenuButton(page: Page, catalog: Catalog) {
  return page.getByRole('button', { name: new RegExp(`^${escapeRegExp(catalog['userMenu.label'])}`) });
}
