import { expect, test, type Page } from '@playwright/test';
import { pl } from './support/catalogs';
import { answerCookieDialog, cookieDialog } from './support/cookie-dialog';
import { startWithPreferences } from './support/preferences';

/**
 * A first visit to a public page drawn at build time: its HTML shows a picture of the cookie
 * dialog beside the app's root, and the app mounts the real dialog a frame after its own first
 * render (client/shell/consent/drawn-cookie-dialog.ts). The visitor must see one dialog all along.
 */
type Frames = { dialogFrames?: string[] };

/** Records, at every frame from the first, which dialog is on screen: the picture, the app's, both or none. */
async function recordDialogFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const frames: string[] = [];
    (window as Frames).dialogFrames = frames;
    const shown = (element: Element | null) => {
      if (!element) return false;
      const style = getComputedStyle(element);
      return style.display !== 'none' && style.visibility !== 'hidden';
    };
    const record = () => {
      const picture = shown(document.querySelector('#drawn-cookie-dialog .cookie-dialog-picture'));
      const real = shown(document.querySelector('[role="dialog"]'));
      frames.push(picture && real ? 'both' : picture ? 'picture' : real ? 'app' : 'none');
      if (frames.length < 2_000) requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
}

async function dialogFrames(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as Frames).dialogFrames ?? []);
}

/** The frames as runs of the same state: ['none', 'picture', 'app'] for a clean hand-over. */
function runs(frames: string[]): string[] {
  return frames.filter((state, index) => state !== frames[index - 1]);
}

test("a first visit shows one cookie dialog from the first paint on: the picture, then the app's in its place", async ({ page }) => {
  await recordDialogFrames(page);
  await page.goto('/faq');
  await expect(cookieDialog(page, pl)).toBeVisible();
  // The app has taken the page over (its root stays inert behind the modal dialog, as react-aria makes it).
  await expect(page.locator('html')).not.toHaveAttribute('data-prerendered');
  // The real dialog has focus, as a modal dialog takes it, and the picture is gone from the page.
  await expect(cookieDialog(page, pl)).toBeFocused();
  await expect(page.locator('#drawn-cookie-dialog')).toHaveCount(0);

  // Frames before the HTML's body was parsed may show nothing; after that, never none, never two.
  const seen = runs(await dialogFrames(page));
  expect(seen).toEqual(seen[0] === 'none' ? ['none', 'picture', 'app'] : ['picture', 'app']);

  await answerCookieDialog(page, pl, 'cookies.rejectAll');
  await expect(page.locator('#main')).toBeFocused();
});

test('a visitor in English never sees the Polish picture of the dialog, only hers', async ({ page }) => {
  await startWithPreferences(page, { lang: 'en' });
  await recordDialogFrames(page);
  await page.goto('/faq');
  await expect(page.getByRole('dialog', { name: 'Cookies' })).toBeVisible();
  await expect(page.locator('#drawn-cookie-dialog')).toHaveCount(0);

  expect(runs(await dialogFrames(page)).filter((state) => state !== 'none')).toEqual(['app']);
});
