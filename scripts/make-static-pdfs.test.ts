import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config';
import { readPdfText } from '../tests/support/read-pdf-text';
import { REPOSITORY_ROOT, STATIC_PDFS } from './make-static-pdfs';

// The committed files carry the fictional defaults; a private data dir keeps this run's
// generated local secrets away from the developer's ./data.
const dataDir = mkdtempSync(path.join(tmpdir(), 'static-pdfs-'));
const { provider } = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const copyRequestForm = STATIC_PDFS.find((pdf) => pdf.file.endsWith('wniosek-o-kopie-dokumentacji.pdf'))!;

describe('static PDFs', () => {
  it.each(STATIC_PDFS)('$file is committed exactly as the script generates it', async (pdf) => {
    const committed = readFileSync(path.join(REPOSITORY_ROOT, pdf.file));
    const regenerated = Buffer.from(await pdf.render(provider));
    // On failure: npx tsx scripts/make-static-pdfs.ts
    expect(regenerated.equals(committed)).toBe(true);
  });

  it('the copy request form tells the patient what to order, what it costs and where to pay', async () => {
    const text = await readPdfText(await copyRequestForm.render(provider));
    for (const expected of [
      'Wniosek o wydanie kopii dokumentacji medycznej',
      'PESEL',
      'wyniku badania – opisu mammografii (bezpłatnie)',
      'ankiety wypełnionej podczas badania',
      'zdjęć cyfrowych na płycie CD/DVD wraz z licencją przeglądarki obrazów (21,00 zł)',
      'wglądu w dokumentację w siedzibie placówki',
      'odbiór przez osobę upoważnioną',
      '„opłata za kopię”',
      provider.legalName,
      provider.address,
      provider.bankAccount,
      provider.email,
    ]) {
      expect(text).toContain(expected);
    }
  });
});
