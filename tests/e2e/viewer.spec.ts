import { expect, type Locator, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ImageSetsResponse } from '../../common/types/images';
import { DICOM_CORPUS_DIR } from '../support/dicom-corpus';
import { pl, type Catalog } from './support/catalogs';
import { applyPreferences, axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { signInThroughApi } from './support/api-sign-in';
import { testOnOwnServer } from './support/own-server';
import { canvasInk, expectDrawn } from './support/viewer-canvas';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * The mammography viewer (issue 15): Anna's screening hung in four views, compared with the one
 * before, an uploaded JPEG 2000 study and an image that cannot be decoded. Uploads change her
 * account, so this file runs on a portal of its own.
 */
const test = testOnOwnServer();
const catalog: Catalog = pl;

/** One synthetic mammogram per transfer syntax, and one that cannot be decoded (their README). */
const SYNTAX_FIXTURES = path.join(DICOM_CORPUS_DIR, '..', 'dicom-syntaxes');

/** A catalog message with its ICU parts replaced by "anything". */
function pattern(message: string): RegExp {
  const escaped = message.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\\{[^{}]*\\\}|\{[^{}]*\}/g, '.+')}$`);
}

async function signIn(page: Page, baseURL: string | undefined) {
  await startWithPreferences(page, { lang: 'pl' });
  await skipCookieDialog(page.context(), baseURL);
  return signInThroughApi(page.request, 'patient');
}

async function imageSets(page: Page) {
  const response = await page.request.get('/api/images');
  expect(response.status()).toBe(200);
  return ((await response.json()) as ImageSetsResponse).sets;
}

async function upload(page: Page, csrfToken: string, file: string) {
  const response = await page.request.post('/api/dicom', {
    headers: { 'X-CSRF-Token': csrfToken },
    multipart: { dicoms: { name: path.basename(file), mimeType: 'application/dicom', buffer: readFileSync(file) } },
  });
  expect(response.status()).toBe(200);
}

const viewName = (side: 'right' | 'left', view: string) =>
  catalog['images.viewName']
    .replace('{side}', catalog[side === 'right' ? 'images.side.right' : 'images.side.left'])
    .replace('{view}', catalog['images.view.named'].replace('{view}', view));

test('hangs a screening in four views, R on the left and L on the right, each drawn and named', async ({ page, baseURL }) => {
  await signIn(page, baseURL);
  const [newest] = (await imageSets(page)).filter((set) => set.kind === 'screening');
  if (newest?.kind !== 'screening') throw new Error('Anna has no screening with images');

  await page.goto(`/screening/${newest.screeningId}`);
  await page.getByRole('link', { name: catalog['images.link'] }).click();
  await expect(page).toHaveURL(new RegExp(`/screening/${newest.screeningId}/images$`));
  await expect(page.getByRole('heading', { level: 1, name: catalog['images.title'] })).toBeVisible();

  const hanging = page.getByRole('group', { name: catalog['images.hanging.label'] });
  const regions = hanging.getByRole('region');
  // The viewer's code (cornerstone3D, 4 MB) may take a while on a busy test machine.
  await expect(regions).toHaveCount(4, { timeout: 30_000 });
  const names = ['CC', 'CC', 'MLO', 'MLO'].map((view, index) => viewName(index % 2 === 0 ? 'right' : 'left', view));
  for (const [index, name] of names.entries()) {
    await expect(regions.nth(index)).toHaveAccessibleName(new RegExp(`^${name}, \\d{1,2} \\p{L}+ \\d{4}$`, 'u'));
    await expectDrawn(regions.nth(index));
  }
  // Radiologists' hanging: RCC|LCC above RMLO|LMLO.
  const box = async (index: number) => {
    const found = await regions.nth(index).boundingBox();
    if (!found) throw new Error(`viewport ${index} is not laid out`);
    return found;
  };
  const [rcc, lcc, rmlo] = [await box(0), await box(1), await box(2)];
  expect(rcc.x).toBeLessThan(lcc.x);
  expect(rcc.y).toBe(lcc.y);
  expect(rmlo.y).toBeGreaterThan(rcc.y);

  // Keyboard: the focused viewport zooms and inverts with the documented keys.
  await regions.first().focus();
  const before = await canvasInk(regions.first());
  await page.keyboard.press('i');
  await expect.poll(async () => (await canvasInk(regions.first())).lit).not.toBe(before.lit);
  await page.getByRole('button', { name: catalog['images.tools.reset'] }).click();
  await expect.poll(async () => (await canvasInk(regions.first())).lit).toBe(before.lit);

  expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);
});

test('compares a view with the same view of the previous screening', async ({ page, baseURL }) => {
  await signIn(page, baseURL);
  const screenings = (await imageSets(page)).filter((set) => set.kind === 'screening');
  const [newest, previous] = screenings;
  if (newest?.kind !== 'screening' || previous?.kind !== 'screening') throw new Error('Anna needs two screenings with images');

  await page.goto(`/screening/${newest.screeningId}/images`);
  await page.getByRole('button', { name: catalog['images.compare'] }).click();
  await page.getByRole('radio', { name: viewName('left', 'MLO') }).click();
  const current = page.getByRole('figure').filter({ hasText: catalog['images.viewport.current'] }).getByRole('region');
  const prior = page.getByRole('figure').filter({ hasText: catalog['images.viewport.prior'] }).getByRole('region');
  await expectDrawn(current);
  await expectDrawn(prior);
  const currentName = await current.getAttribute('aria-label');
  const priorName = await prior.getAttribute('aria-label');
  expect(currentName).toMatch(new RegExp(`^${viewName('left', 'MLO')}, `));
  expect(priorName).toMatch(new RegExp(`^${viewName('left', 'MLO')}, `));
  // The prior is the screening before, by its date.
  expect(priorName).not.toBe(currentName);
  expect(priorName).toContain(previous.examinedAt.slice(0, 4));
});

test('shows an uploaded JPEG 2000 study with its thumbnail', async ({ page, baseURL }) => {
  const csrfToken = await signIn(page, baseURL);
  await upload(page, csrfToken, path.join(SYNTAX_FIXTURES, 'jpeg-2000-lossless-16bit.dcm'));

  await page.goto('/portal/upload-screenings');
  const studies = page.getByRole('grid', { name: catalog['upload.studies.title'] });
  const thumbnail = studies.getByRole('img', { name: pattern(catalog['images.thumbnail.alt']) }).first();
  await expect.poll(async () => (await canvasInk(thumbnail.locator('xpath=..'))).levels, { timeout: 20_000 }).toBeGreaterThan(8);
  await studies
    .getByRole('link', { name: pattern(catalog['images.studyLink']) })
    .first()
    .click();
  await expect(page).toHaveURL(/\/portal\/uploaded-studies\//);
  await expect(page.getByRole('heading', { level: 1, name: catalog['images.titleUpload'] })).toBeVisible();
  const rcc = page.getByRole('region', { name: new RegExp(`^${viewName('right', 'CC')}, `) });
  await expectDrawn(rcc);
});

test('reads every transfer syntax patients bring, and says plainly which image it cannot decode', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const csrfToken = await signIn(page, baseURL);
  const fixtures = readdirSync(SYNTAX_FIXTURES).filter((file) => file.endsWith('.dcm'));
  for (const file of fixtures) await upload(page, csrfToken, path.join(SYNTAX_FIXTURES, file));
  const study = (await imageSets(page)).find((set) => set.kind === 'upload' && set.images.length === fixtures.length);
  if (study?.kind !== 'upload') throw new Error('the fixtures are not one listed study');

  await page.goto(`/portal/uploaded-studies/${encodeURIComponent(study.studyInstanceUid)}`);
  const outcomes: string[] = [];
  const record = async (viewport: Locator) => {
    await expect(viewport).toHaveAttribute('data-status', /^(drawn|undecodable)$/, { timeout: 20_000 });
    const status = (await viewport.getAttribute('data-status'))!;
    if (status === 'drawn') await expectDrawn(viewport);
    else await expect(viewport.getByRole('alert')).toHaveText(catalog['images.viewport.undecodable']);
    outcomes.push(status);
  };
  const hanging = page.getByRole('group', { name: catalog['images.hanging.label'] }).getByRole('region');
  await expect(hanging).toHaveCount(4, { timeout: 30_000 });
  for (let index = 0; index < 4; index++) await record(hanging.nth(index));
  const others = page.getByRole('region', { name: catalog['images.others.title'] }).getByRole('region');
  const next = page.getByRole('button', { name: catalog['images.pager.next'] });
  for (let index = 4; index < fixtures.length; index++) {
    await record(others);
    if (index < fixtures.length - 1) await next.click();
  }
  expect(outcomes.filter((outcome) => outcome === 'undecodable')).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome === 'drawn')).toHaveLength(fixtures.length - 1);
});

test('works on a 360 px phone at font scale 1.6: one view at a time, axe clean', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, baseURL);
  const [newest] = (await imageSets(page)).filter((set) => set.kind === 'screening');
  if (newest?.kind !== 'screening') throw new Error('Anna has no screening with images');
  await page.goto(`/screening/${newest.screeningId}/images`);
  await applyPreferences(page, 'default', 1.6);

  const regions = page.getByRole('region', { name: pattern(catalog['images.viewNameDated']) });
  await expect(regions).toHaveCount(1, { timeout: 30_000 });
  await expectDrawn(regions.first());
  await page.getByRole('radio', { name: viewName('left', 'CC') }).click();
  await expect(regions.first()).toHaveAccessibleName(new RegExp(`^${viewName('left', 'CC')}, `));
  await expectDrawn(regions.first());

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
});
