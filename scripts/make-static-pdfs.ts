/**
 * Writes the PDFs that the portal serves as static files (public/documents/), generated from the
 * same layout as the documents made at run time, with the provider's details from the
 * configuration (PROVIDER_* settings, else the fictional defaults):
 *   npx tsx scripts/make-static-pdfs.ts
 * The files are committed; scripts/make-static-pdfs.test.ts fails when they are out of date.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../server/config';
import { renderCopyRequestForm, type ProviderInfo } from '../server/documents';

export type StaticPdf = { file: string; render(provider: ProviderInfo): Promise<Uint8Array> };

export const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const STATIC_PDFS: StaticPdf[] = [
  // Linked from the copy_of_medical_clerking information page.
  { file: 'public/documents/wniosek-o-kopie-dokumentacji.pdf', render: renderCopyRequestForm },
];

async function main(): Promise<void> {
  const { provider } = loadConfig();
  for (const pdf of STATIC_PDFS) {
    const target = path.join(REPOSITORY_ROOT, pdf.file);
    const bytes = await pdf.render(provider);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
    console.log(`${pdf.file}: ${bytes.length} bytes`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
