import { expect, type Locator, type Page } from '@playwright/test';
import type { ImageSetsResponse } from '../../common/types/images';
import { en } from './support/catalogs';
import { axeViolations } from './support/axe';
import { signInThroughApi } from './support/api-sign-in';
import { keptCount } from './support/device-store';
import { testOnOwnServer } from './support/own-server';
import { expectDrawn } from './support/viewer-canvas';
import { skipCookieDialog, startWithPreferences } from './support/preferences';
import { keepCopiesOnDevice, unlockWithPin } from './support/keep-on-device';

/**
 * Kept screening images offline (issues 15 and 16): Anna chooses to keep her results on this device
 * (with a device PIN), keeps a screening's images there, sealed, within the limit she sees, and the
 * installed app draws them with the network off, after her PIN, and the browser's own cache
 * emptied: the images come from the kept copies, the viewer's code from the service worker's
 * cache of it (sw/README.md). Cleared, they are gone offline too, and so is that code.
 * Runs on a portal of its own: it signs in, and other journeys count the demo patients' audit.
 */
const test = testOnOwnServer();

/** A page opened from the device loads 4 MB of viewer code first: on a busy 2-core machine that takes a while. */
const PAGE_LOAD = { timeout: 30_000 };
const VIEWER_CODE = /\/assets\/(cornerstone3d-[\w-]+\.js|decodeImageFrameWorker-[\w-]+\.js|images-[\w-]+\.css|[\w-]+\.wasm)$/;

/** "Used: 12.3 MB of 2 GB", the figure the patient reads, as the page formats it. */
const usagePattern = (used: string) =>
  new RegExp(`^${en['images.offline.usage'].replace('{used}', used).replace('{limit}', '[\\d.,]+ [MG]B')}$`);
const megabytes = (bytes: number) =>
  new Intl.NumberFormat('en', { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 }).format(bytes / 1e6);

/** The four standard views hung and each one drawn. */
async function expectFourViewsDrawn(page: Page): Promise<void> {
  const regions = page.getByRole('group', { name: en['images.hanging.label'] }).getByRole('region');
  await expect(regions).toHaveCount(4, PAGE_LOAD);
  for (let index = 0; index < 4; index++) {
    await expectDrawn(regions.nth(index));
  }
}

/** The files of each service worker cache, by cache name, as paths. */
function workerCaches(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const found: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      found[name] = requests.map((request) => new URL(request.url).pathname);
    }
    return found;
  });
}

function keepSection(page: Page): Locator {
  return page.getByRole('region', { name: en['images.offline.title'] });
}

test('Anna keeps a screening’s images, views them offline from the device, and clears them', async ({ page, context, baseURL }) => {
  test.setTimeout(240_000);
  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(context, baseURL);
  await signInThroughApi(page.request, 'patient');
  const answer = await page.request.get('/api/images');
  expect(answer.status()).toBe(200);
  const [newest] = ((await answer.json()) as ImageSetsResponse).sets.filter((set) => set.kind === 'screening');
  if (newest?.kind !== 'screening') throw new Error('Anna has no screening with images');
  const setBytes = newest.images.reduce((sum, image) => sum + image.sizeBytes, 0);
  const imagesPath = `/screening/${newest.screeningId}/images`;

  await page.goto(imagesPath);
  await expect(page.getByRole('heading', { level: 1, name: en['images.title'] })).toBeVisible();
  // The installed app: its worker controls the page before she keeps anything.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expectFourViewsDrawn(page);
  await expect(keepSection(page).getByText(usagePattern(megabytes(0)))).toBeVisible();
  // Opening the viewer keeps neither images nor its code; nor is its code ever precached.
  expect(await keptCount(page, 'images')).toBe(0);
  const before = await workerCaches(page);
  expect(
    Object.values(before)
      .flat()
      .filter((path) => VIEWER_CODE.test(path)),
  ).toEqual([]);

  // Images are kept sealed like her documents: only once she chose to keep copies, with a PIN.
  await expect(keepSection(page).getByRole('button', { name: en['images.offline.keep'] })).toHaveCount(0);
  await expect(keepSection(page).getByText(en['images.offline.needsKeeping'])).toBeVisible();
  await keepCopiesOnDevice(page, en);
  await keepSection(page).getByRole('button', { name: en['images.offline.keep'] }).click();
  await expect(keepSection(page).getByText(en['images.offline.kept'])).toBeVisible(PAGE_LOAD);
  await expect(keepSection(page).getByText(usagePattern(megabytes(setBytes)))).toBeVisible();
  expect(await keptCount(page, 'imageSets')).toBe(1);
  expect(await keptCount(page, 'images')).toBe(newest.images.length);
  const viewerCode = (await workerCaches(page))['viewer-code'] ?? [];
  for (const part of [/cornerstone3d-/, /decodeImageFrameWorker-/, /images-[\w-]+\.css$/, /\.wasm$/]) {
    expect(
      viewerCode.some((path) => part.test(path)),
      String(part),
    ).toBe(true);
  }

  // A phone short of space empties the browser's own cache first: what opens offline must not rely on it.
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.clearBrowserCache');
  await context.setOffline(true);
  try {
    await page.reload();
    await unlockWithPin(page, en);
    await expect(page.getByRole('heading', { level: 1, name: en['images.title'] })).toBeVisible(PAGE_LOAD);
    await expect(page.getByText(en['images.offlineViewing'], { exact: true })).toBeVisible(PAGE_LOAD);
    await expectFourViewsDrawn(page);
    await expect(keepSection(page).getByText(en['images.offline.kept'])).toBeVisible();
    // Offline nothing new can be kept; what is kept can be removed.
    await expect(keepSection(page).getByRole('button', { name: en['images.offline.keep'] })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);

    await keepSection(page).getByRole('button', { name: en['images.offline.clear'] }).click();
    // The page shows only what the device keeps: the images are gone from it at once, said plainly.
    await expect(page.getByRole('alert').filter({ hasText: en['images.offlineNotKept'] })).toBeVisible();
    await expect(page.getByRole('group', { name: en['images.hanging.label'] })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: en['images.title'] })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    expect(await keptCount(page, 'imageSets')).toBe(0);
    expect(await keptCount(page, 'images')).toBe(0);
    // Nothing on the device needs the viewer's code any more: it went with the images.
    await expect.poll(async () => Object.keys(await workerCaches(page))).not.toContain('viewer-code');

    // Opened again offline, with nothing of hers kept, the viewer is not opened from the device.
    await page.reload();
    await expect(page).toHaveURL(/\/login$/, PAGE_LOAD);
    await expect(page.getByRole('group', { name: en['images.hanging.label'] })).toHaveCount(0);
  } finally {
    await context.setOffline(false);
  }
});
