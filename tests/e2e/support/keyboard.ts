import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The focused element shows where focus is: an outline or a ring, as :focus-visible asks. A
 * visually hidden input (react-aria checkbox) shows it on the control around it, which react-aria
 * marks with data-focus-visible.
 */
export async function expectVisibleFocus(element: Locator): Promise<void> {
  const focus = await element.evaluate((node) => {
    const isVisuallyHidden = (candidate: Element) => {
      const box = candidate.getBoundingClientRect();
      return box.width <= 1 || box.height <= 1;
    };
    const indicator = isVisuallyHidden(node) ? node.closest('[data-focus-visible]') : node;
    const style = indicator && getComputedStyle(indicator);
    return {
      focusVisible: node.matches(':focus-visible'),
      shownOnVisibleBox: indicator !== null && !isVisuallyHidden(indicator),
      outlineOrRing: !!style && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'),
    };
  });
  expect(focus).toEqual({ focusVisible: true, shownOnVisibleBox: true, outlineOrRing: true });
}

/**
 * Presses Tab until the target has focus; every stop on the way must show its focus too. The
 * default bound crosses the header and a login card; more means focus is lost somewhere.
 */
export async function tabTo(page: Page, target: Locator, maxTabs = 15): Promise<void> {
  // She starts tabbing once she sees what she is after: a page's heading comes before its data,
  // and a public page's picture drawn at build time before the app that takes keys.
  await target.waitFor();
  await expectAppStarted(page);
  let previous = 'the start';
  for (let presses = 0; presses < maxTabs; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.activeElement;
      return active && active !== document.body
        ? `${active.tagName.toLowerCase()} "${active.textContent?.trim().slice(0, 40) ?? ''}"`
        : null;
    });
    if (!focused) throw new Error(`Tab after ${previous} left the page (focus on <body>) before reaching ${target.toString()}`);
    previous = focused;
    await expectVisibleFocus(page.locator(':focus'));
    if (await target.evaluate((node) => node === document.activeElement)) return;
  }
  throw new Error(`${maxTabs} presses of Tab never reached ${target.toString()}`);
}

/**
 * A public page arrives drawn into its HTML (scripts/vite-prerender.ts) and takes keys only once
 * the app has replaced that picture (`inert` until then): a journey by keys alone starts there.
 */
export async function expectAppStarted(page: Page): Promise<void> {
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
}
