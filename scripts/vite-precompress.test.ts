import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_SIZE_BYTES, precompressDir } from './vite-precompress';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
  mkdirSync(path.join(dir, 'assets'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const script = `export const words = ${JSON.stringify(Array.from({ length: 300 }, (_, index) => `word ${index}`))};`;

describe('precompressed copies of the build', () => {
  it('writes brotli and gzip copies of text files that decompress to the file', async () => {
    writeFileSync(path.join(dir, 'assets', 'index-AbC.js'), script);
    writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>${'x'.repeat(2000)}</title>`);
    await precompressDir(dir);
    const file = path.join(dir, 'assets', 'index-AbC.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(script);
    expect(existsSync(path.join(dir, 'index.html.br'))).toBe(true);
  });

  it('leaves out files too small to gain and files that are not text (images, fonts, PDFs)', async () => {
    writeFileSync(path.join(dir, 'tiny.js'), 'x'.repeat(MIN_SIZE_BYTES - 1));
    writeFileSync(path.join(dir, 'photo.png'), script);
    writeFileSync(path.join(dir, 'leaflet.pdf'), script);
    expect(await precompressDir(dir)).toEqual([]);
  });
});
