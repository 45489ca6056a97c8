import { test as base, expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { synthesizeScreeningStudy } from '../../server/dicom/synthetic-mg';
import { startTestSmtp, type TestSmtp } from '../support/test-smtp';
import { en } from './support/catalogs';
import { RESULT_BIRTH_DATE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin } from './support/login-forms';
import { startOwnServer, type OwnServer } from './support/own-server';
import { canvasHasDrawing } from './support/pdf-canvas';
import { skipCookieDialog, startWithPreferences } from './support/preferences';

/**
 * A small provider without a RIS: the staff command line imports a screening bundle (manifest,
 * description PDF, DICOM folder) into a running portal through its provider API; the patient
 * signs in with the access code the import printed, reads her description, and the "result
 * ready" mail reaches her through a real SMTP server, without her result in it.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const DESCRIPTION_TEXT = 'Bundle import description 2026';

let server: OwnServer | undefined;
let smtp: TestSmtp | undefined;
let workDir = '';
let apiKey = '';

const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(server?.baseURL),
});
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  workDir = mkdtempSync(path.join(tmpdir(), 'bundle-journey-'));
  const keyFile = path.join(workDir, 'provider-key');
  smtp = await startTestSmtp();
  server = await startOwnServer({ SMTP_URL: smtp.url, PROVIDER_KEY_FILE: keyFile });
  apiKey = readFileSync(keyFile, 'utf8');
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function writeBundle(folder: string): Promise<void> {
  mkdirSync(path.join(folder, 'dicom'), { recursive: true });
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(DESCRIPTION_TEXT, { x: 72, y: 760, size: 14, font });
  writeFileSync(path.join(folder, 'opis.pdf'), await pdf.save());
  const images = synthesizeScreeningStudy({
    patient: { firstName: 'Zofia', lastName: 'Importowa', birthAt: RESULT_BIRTH_DATE, patientId: 'RIS-P-9001' },
    examinedAt: new Date('2026-11-20T09:30:00+01:00'),
    accessionNumber: 'ACC9001',
  });
  images.forEach((image, index) => writeFileSync(path.join(folder, 'dicom', `IM${index + 1}.dcm`), image.bytes));
  const manifest = {
    patient: {
      externalId: 'RIS-P-9001',
      firstName: 'Zofia',
      lastName: 'Importowa',
      birthAt: RESULT_BIRTH_DATE,
      email: 'zofia.importowa@example.com',
    },
    screening: {
      externalId: 'RIS-S-9001',
      examinedAt: '2026-11-20T09:30:00+01:00',
      absorbedDoseMgy: 2.7,
      facility: 'Mammobus 3',
      accessionNumber: 'ACC9001',
    },
    documents: [{ externalId: 'RIS-D-9001-pl', kind: 'description', language: 'en', file: 'opis.pdf' }],
    images: 'dicom',
    result: { descriptionsStatus: 'completed', birads: 1, signedAt: '2026-11-21T12:00:00+01:00' },
  };
  writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

function importBundle(folder: string) {
  return run(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', 'import-bundle', folder, '--url', server!.baseURL], {
    cwd: repoRoot,
    env: { ...process.env, PORTAL_API_KEY: apiKey },
  });
}

test('the command line imports a bundle; the patient signs in with its access code, reads the description and gets one "result ready" mail', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const bundle = path.join(workDir, 'bundle');
  await writeBundle(bundle);

  const first = await importBundle(bundle);
  expect(first.stdout).toContain('images: 4 stored');
  const accessCode = /ACCESS CODE \(shown once, for the patient's slip\): (\S+)/.exec(first.stdout)?.[1];
  expect(accessCode).toMatch(/^[A-Za-z0-9]{8}$/);

  // A second run of the same bundle changes nothing and sends nothing more.
  const again = await importBundle(bundle);
  expect(again.stdout).toContain('screening RIS-S-9001: imported before');
  expect(again.stdout).toContain(`ACCESS CODE (shown once, for the patient's slip): ${accessCode}`);

  await startWithPreferences(page, { lang: 'en' });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/login');
  await fillResultLogin(page, en, accessCode!);
  await acceptConsents(page, en);
  await page.getByRole('button', { name: en['login.submit'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
  await expect(page.getByRole('table').getByRole('row', { name: /2[.,]7.* mGy/ })).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.normal']);

  const viewer = page.getByRole('region', { name: en['result.documents.descriptionEn'], exact: true });
  await viewer.getByRole('button', { name: en['result.pdf.open'] }).click();
  const firstPage = new RegExp(`^${en['result.pdf.pageLabel'].replace('{page}', '1').replace('{pages}', '1')}$`);
  await expect(viewer.getByRole('img', { name: firstPage })).toBeVisible();
  await expect.poll(() => canvasHasDrawing(page, firstPage), { timeout: 10_000 }).toBe(true);
  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: en['result.pdf.download'] }).click();
  const downloaded = await readFile((await (await download).path())!);
  expect(Buffer.compare(downloaded, readFileSync(path.join(bundle, 'opis.pdf')))).toBe(0);

  await expect.poll(() => smtp!.messages.filter((mail) => mail.envelopeTo.includes('zofia.importowa@example.com')).length).toBe(1);
  const notice = smtp!.messages.find((mail) => mail.envelopeTo.includes('zofia.importowa@example.com'))!;
  expect(notice.text).toContain(server!.baseURL);
  expect(`${notice.subject}\n${notice.text}`).not.toMatch(/BI-?RADS|normal|negative|negatywn|prawidłow/i);
});
