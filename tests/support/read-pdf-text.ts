import { execFile } from 'node:child_process';

/**
 * The text a reader's PDF tool extracts, via poppler's `pdftotext` (Debian `poppler-utils`): an
 * independent check, for tests, that embedded fonts map glyphs back to the right letters.
 * Whitespace is collapsed so assertions need not know where lines wrap.
 */
export function readPdfText(bytes: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('pdftotext', ['-enc', 'UTF-8', '-', '-'], { maxBuffer: 32 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout.replace(/\s+/g, ' ').trim());
    });
    child.stdin?.end(Buffer.from(bytes));
  });
}
