import { expect, type Page } from '@playwright/test';
import type { Catalog } from './catalogs';

/** The dialog is modal and hides the page from assistive technology until it is answered. */
export function cookieDialog(page: Page, catalog: Catalog) {
  return page.getByRole('dialog', { name: catalog['cookies.title'] });
}

export async function answerCookieDialog(
  page: Page,
  catalog: Catalog,
  choice: 'cookies.allowAll' | 'cookies.rejectAll' = 'cookies.rejectAll',
): Promise<void> {
  const dialog = cookieDialog(page, catalog);
  await dialog.getByRole('button', { name: catalog[choice] }).click();
  await expect(dialog).toBeHidden();
}
