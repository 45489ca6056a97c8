import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UploadedStudiesResponse, UploadLimits } from '../../common/types/upload';
import { writePart10 } from '../../server/dicom/part10';
import { MG_FOR_PRESENTATION_SOP_CLASS } from '../../server/dicom/synthetic-mg';
import { DICOM_CORPUS_DIR } from '../support/dicom-corpus';
import { signInThroughApi } from './support/api-sign-in';
import { applyPreferences, axeViolations, axeViolationsInEveryTheme, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { en, type Catalog } from './support/catalogs';
import { startCuttingProxy } from './support/cutting-proxy';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * Resumable uploads (issue 15): a 1 GB folder through a connection cut three times, a reload in
 * the middle of an upload, a quota refusal and a damaged file. Anna's account fills up here, so
 * the file runs on a portal of its own.
 */
const test = testOnOwnServer();

const MB = 1_000_000;
const UPLOADS = '/api/dicom/uploads';

/**
 * A folder of valid, distinct mammograms as a disc would hold them (the bench's idea): one image
 * written by dcmjs, copied with a new SOP Instance UID each. `seed` keeps the UIDs of two folders
 * apart. Kept in the temp directory between runs: 1 GB takes a while to write.
 */
function dicomFolder(name: string, seed: number, files: { count: number; bytes: number }[]): { dir: string; count: number; bytes: number } {
  const dir = path.join(tmpdir(), `h2-e2e-${name}`);
  const count = files.reduce((sum, group) => sum + group.count, 0);
  if (existsSync(dir) && readdirSync(dir).length === count) {
    return { dir, count, bytes: readdirSync(dir).reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0) };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Fixed length, so each copy's UID overwrites the template's in place.
  const uidOf = (n: number) => `2.25.${seed}${String(n).padStart(9, '0')}`;
  let n = 0;
  let bytes = 0;
  files.forEach((group, groupIndex) => {
    const side = Math.round(Math.sqrt(group.bytes / 2));
    const template = Buffer.from(image(uidOf(0), side));
    const templateUid = Buffer.from(uidOf(0), 'latin1');
    const offsets: number[] = [];
    for (let at = template.indexOf(templateUid); at !== -1; at = template.indexOf(templateUid, at + 1)) offsets.push(at);
    for (let index = 0; index < group.count; index++) {
      n++;
      for (const offset of offsets) Buffer.from(uidOf(n), 'latin1').copy(template, offset);
      // Big ones first in the folder's order, so they are on their way early.
      writeFileSync(path.join(dir, `${groupIndex === 0 && files.length > 1 ? 'A' : 'IM'}${String(n).padStart(5, '0')}`), template);
      bytes += template.length;
    }
  });
  return { dir, count, bytes };
}

function image(sopInstanceUid: string, side: number): Uint8Array {
  const pixels = new Uint16Array(side * side).map((_, i) => (i * 7) & 0xfff);
  const dataset = {
    SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
    SOPInstanceUID: sopInstanceUid,
    StudyInstanceUID: `${sopInstanceUid.slice(0, 12)}.1`,
    SeriesInstanceUID: `${sopInstanceUid.slice(0, 12)}.2`,
    Modality: 'MG',
    StudyDate: '20261006',
    Rows: side,
    Columns: side,
    BitsAllocated: 16,
    BitsStored: 12,
    HighBit: 11,
    PixelRepresentation: 0,
    SamplesPerPixel: 1,
    PhotometricInterpretation: 'MONOCHROME2',
    PixelData: [pixels.buffer],
    _vrMap: { PixelData: 'OW' },
  };
  return writePart10(dataset, MG_FOR_PRESENTATION_SOP_CLASS, sopInstanceUid);
}

/** A catalog message with its ICU parts replaced by "anything". */
function pattern(message: string): RegExp {
  const escaped = message.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{[^{}]*\}/g, '.+').replace(/[{}]/g, '')}$`);
}

async function openUploadPage(page: Page, origin: string, catalog: Catalog = en) {
  await startWithPreferences(page, { lang: catalog === en ? 'en' : 'pl' });
  await skipCookieDialog(page.context(), origin);
  await page.goto(`${origin}/portal/upload-screenings`);
  await expect(page.getByRole('heading', { level: 1, name: catalog['upload.title'] })).toBeVisible();
  await expect(page.getByRole('button', { name: catalog['upload.chooseFolder'] })).toBeEnabled();
}

async function pickFolder(page: Page, dir: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en['upload.chooseFolder'] }).click();
  await (await chooser).setFiles(dir);
}

async function instancesStored(request: APIRequestContext, origin: string): Promise<number> {
  const { studies } = (await (await request.get(`${origin}/api/dicom`)).json()) as UploadedStudiesResponse;
  return studies.reduce((sum, study) => sum + study.instances, 0);
}

function report(page: Page) {
  return page.getByRole('region', { name: en['upload.report.title'] });
}

test('a 1 GB folder whose connection is cut three times at random points completes, sending under 1.1 GB', async ({ page, baseURL }) => {
  test.setTimeout(20 * 60_000);
  // A study's worth of mammograms (40 MB, sent in several chunks, so a cut lands mid-file) and
  // smaller images; the 5,000-file pick is the marker-scan bench's.
  const folder = dicomFolder('cut-1gb-mixed', 1111, [
    { count: 16, bytes: 40_000_000 },
    { count: 380, bytes: 1_000_000 },
  ]);
  expect(folder.bytes).toBeGreaterThan(0.99e9);
  const proxy = await startCuttingProxy(new URL(baseURL!));
  try {
    await signInThroughApi(page.request, 'patient');
    await openUploadPage(page, proxy.url);
    const before = await instancesStored(page.request, baseURL!);
    // Three cuts at random points of the upload's bytes, each destroying every open connection.
    const start = proxy.clientBytes();
    const cuts = Array.from({ length: 3 }, () => start + Math.round(folder.bytes * (0.05 + Math.random() * 0.9)));
    proxy.cutAt(cuts);
    await page.evaluate(() => {
      const marks = window as unknown as { pickedAt?: number; longTasks: number[] };
      marks.longTasks = [];
      document.addEventListener('change', () => (marks.pickedAt ??= performance.now()), true);
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => marks.longTasks.push(entry.duration))).observe({
        type: 'longtask',
      });
    });

    const started = Date.now();
    await pickFolder(page, folder.dir);
    await expect(page.getByText(pattern(en['upload.announce.finished']))).toBeAttached({ timeout: 18 * 60_000 });
    const seconds = (Date.now() - started) / 1000;
    const sent = proxy.clientBytes() - start;

    expect(proxy.cuts()).toBe(3);
    expect(sent, `${sent} bytes sent for ${folder.bytes}`).toBeLessThan(1.1 * folder.bytes);
    // Every image once on the server, none failed. A file whose answer a cut took away may come back
    // as "already in your account" when sent again: the server keeps each image once.
    expect(await instancesStored(page.request, baseURL!)).toBe(before + folder.count);
    await expect(report(page).locator('.upload-report__failure')).toHaveCount(0);
    await expect(report(page).getByText(/images? stored$/)).toBeVisible();

    const timing = await page.evaluate(() => {
      const marks = window as unknown as { pickedAt?: number; longTasks: number[] };
      const firstSend = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('/api/dicom/uploads'))
        .map((entry) => entry.startTime)
        .sort((a, b) => a - b)[0];
      return {
        pickToFirstByteMs: firstSend! - marks.pickedAt!,
        longestTaskMs: Math.max(0, ...marks.longTasks),
        longTasks: marks.longTasks.length,
      };
    });
    console.log(
      `1 GB resumable upload through 3 cuts: ${folder.count} files, ${(folder.bytes / MB).toFixed(0)} MB in ${seconds.toFixed(1)} s ` +
        `(${(folder.bytes / MB / seconds).toFixed(1)} MB/s), ${(sent / MB).toFixed(0)} MB sent; pick to first byte ` +
        `${timing.pickToFirstByteMs.toFixed(0)} ms; ${timing.longTasks} tasks over 50 ms (longest ${timing.longestTaskMs.toFixed(0)} ms)`,
    );
    // The bench holds the 0.5 s target (`npm run bench`, on a quiet machine); here it is reported.

    expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);
  } finally {
    await proxy.close();
  }
});

test('a reload in the middle of an upload, then the same folder picked again, finishes it without storing anything twice', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(10 * 60_000);
  // Three 30 MB images (sent in several requests, so the reload leaves them half sent) and 300 small ones.
  const folder = dicomFolder('reload', 2222, [
    { count: 3, bytes: 30 * MB },
    { count: 300, bytes: 200_000 },
  ]);
  await signInThroughApi(page.request, 'patient');
  await openUploadPage(page, baseURL!);
  const before = await instancesStored(page.request, baseURL!);
  // A slow uplink, as on a hotel's Wi-Fi: the reload comes while the big files are on their way.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 8 * MB });

  // A big file is past its first request once one of them sends a PATCH: the browser knows its upload URL.
  const patched = page.waitForRequest(
    (request) => request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith(`${UPLOADS}/`),
    {
      timeout: 120_000,
    },
  );
  await pickFolder(page, folder.dir);
  const active = page.getByRole('list', { name: en['upload.progress.activeFiles'] });
  await expect(active).toBeVisible();
  await patched;
  await expect.poll(() => instancesStored(page.request, baseURL!), { timeout: 120_000 }).toBeGreaterThan(before + 3);
  const storedBeforeReload = (await instancesStored(page.request, baseURL!)) - before;
  expect(storedBeforeReload).toBeLessThan(folder.count);

  await page.reload();
  await expect(page.getByRole('button', { name: en['upload.chooseFolder'] })).toBeEnabled();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const created: string[] = [];
  const asked: string[] = [];
  const resumed: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'POST' && url.pathname === UPLOADS) created.push(url.pathname);
    if (request.method() === 'HEAD' && url.pathname.startsWith(`${UPLOADS}/`)) asked.push(url.pathname);
    const offset = Number(request.headers()['upload-offset'] ?? 0);
    if (request.method() === 'PATCH' && offset > 0) resumed.push(url.pathname);
  });
  await pickFolder(page, folder.dir);
  await expect(page.getByText(pattern(en['upload.announce.finished']))).toBeAttached({ timeout: 5 * 60_000 });

  // Nothing stored twice, nothing missing; the stored ones were not sent again; half-sent ones went on from their offset.
  expect(await instancesStored(page.request, baseURL!)).toBe(before + folder.count);
  const alreadyStored = report(page).getByText(/^[\d,]+ images? (is|are) already in your account/);
  await expect(alreadyStored).toBeVisible();
  const skipped = Number((await alreadyStored.textContent())!.replace(/\D/g, ''));
  expect(skipped).toBeGreaterThanOrEqual(storedBeforeReload);
  expect(created.length).toBeLessThanOrEqual(folder.count - skipped);
  // tus asked where each half-sent file stood (HEAD) and went on from there (PATCH at an offset).
  expect(asked.length).toBeGreaterThan(0);
  expect(resumed.length).toBeGreaterThan(0);
  await expect(report(page).locator('.upload-report__failure')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
});

test('a damaged file and a quota refusal each get their message, also on a 360 px phone at text size 160%', async ({ page, baseURL }) => {
  test.setTimeout(5 * 60_000);
  const csrfToken = await signInThroughApi(page.request, 'patient');
  await openUploadPage(page, baseURL!);

  // A copy cut short: its header names an image, the pixel data ends early.
  const damaged = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en['upload.chooseFiles'] }).click();
  await (await damaged).setFiles(`${DICOM_CORPUS_DIR}/MR_truncated.dcm`);
  await expect(report(page).getByText(`1 file refused: ${en['upload.refusal.unreadable']}`)).toBeVisible({ timeout: 60_000 });
  await report(page).getByRole('button', { name: en['upload.report.problemFiles'] }).click();
  await expect(report(page).getByText(`MR_truncated.dcm: ${en['upload.refusal.unreadable']}`)).toBeVisible();

  // Her space runs out: unfinished uploads reserve their declared length, so these fill what is left.
  // The limits count stored images only: an upload an earlier journey cut off before its client
  // learnt its address still holds its reservation, and the refusal then says how much is left.
  const limits = (await (await page.request.get(`${baseURL}/api/dicom/limits`)).json()) as UploadLimits;
  const reservations: string[] = [];
  for (let left = limits.quotaBytes - limits.usedBytes; left > 0;) {
    const length = Math.min(left, limits.maxFileBytes);
    const response = await page.request.post(`${baseURL}${UPLOADS}`, {
      headers: {
        'X-CSRF-Token': csrfToken,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(length),
        'Upload-Metadata': `name ${Buffer.from('reservation').toString('base64')}`,
      },
    });
    if (response.status() === 413) {
      const usage = (await response.json()) as { code: string; quotaBytes: number; usedBytes: number; reservedBytes: number };
      expect(usage.code).toBe('UPLOAD_QUOTA_EXCEEDED');
      left = usage.quotaBytes - usage.usedBytes - usage.reservedBytes;
      continue;
    }
    expect(response.status()).toBe(201);
    reservations.push(response.headers().location!);
    left -= length;
  }
  try {
    const folder = dicomFolder('quota', 3333, [{ count: 6, bytes: 200_000 }]);
    await pickFolder(page, folder.dir);
    const quotaMessage = en['errors.UPLOAD_QUOTA_EXCEEDED'];
    await expect(report(page).getByText(`6 files could not be sent: ${quotaMessage}`)).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('.upload-page__warning').getByText(quotaMessage)).toBeVisible();
    await expect(report(page).getByRole('button', { name: en['upload.retryFailed'] })).toBeVisible();
    await expect(page.getByRole('region', { name: en['notifications.region'] }).getByText(en['upload.failure'])).toBeVisible();

    // The same page on a phone, text at 160%: nothing wider than the screen, axe clean.
    await page.setViewportSize({ width: 360, height: 740 });
    await applyPreferences(page, 'default', 1.6);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(await axeViolationsInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);
  } finally {
    for (const location of reservations) {
      await page.request.delete(new URL(location, baseURL).href, { headers: { 'X-CSRF-Token': csrfToken, 'Tus-Resumable': '1.0.0' } });
    }
  }
});
