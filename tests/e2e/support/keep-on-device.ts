import { expect, type Page } from '@playwright/test';
import type { Catalog } from './catalogs';

/** The device PIN the journeys set when the patient chooses to keep copies (issue 16). */
export const DEVICE_PIN = '482915';

export function keepSwitch(page: Page, catalog: Catalog) {
  return page.getByRole('switch', { name: catalog['offline.keep.label'] });
}

/**
 * She switches on "keep my results on this device" and sets her device PIN, typed twice. The
 * switch is toggled with the keyboard: the styled track covers react-aria's visually hidden input.
 */
export async function keepCopiesOnDevice(page: Page, catalog: Catalog, pin = DEVICE_PIN): Promise<void> {
  const toggle = keepSwitch(page, catalog);
  await expect(toggle).toBeEnabled();
  await expect(toggle).not.toBeChecked();
  await toggle.press('Space');
  const dialog = page.getByRole('dialog', { name: catalog['offline.keep.pinTitle'] });
  await dialog.getByLabel(catalog['offline.keep.pin'], { exact: true }).fill(pin);
  await dialog.getByLabel(catalog['offline.keep.pinAgain'], { exact: true }).fill(pin);
  await dialog.getByRole('button', { name: catalog['offline.keep.confirm'] }).click();
  await expect(dialog).toHaveCount(0);
  await expect(toggle).toBeChecked();
}

export function pinPrompt(page: Page, catalog: Catalog) {
  return page.getByRole('heading', { level: 1, name: catalog['offline.unlock.title'] });
}

/** Offline, the page of her kept copies asks for her PIN first; she types it. */
export async function unlockWithPin(page: Page, catalog: Catalog, pin = DEVICE_PIN, timeout = 30_000): Promise<void> {
  await expect(pinPrompt(page, catalog)).toBeVisible({ timeout });
  await page.getByLabel(catalog['offline.unlock.pin'], { exact: true }).fill(pin);
  await page.getByRole('button', { name: catalog['offline.unlock.submit'] }).click();
  await expect(pinPrompt(page, catalog)).toHaveCount(0, { timeout });
}
