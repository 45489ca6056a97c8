import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { afterBuild } from './vite-after-build';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy next to every text file of the build, so the
 * server (server/lib/static-client.ts) sends them compressed without spending CPU per request: on
 * a phone's slow link the entry script is a third of its size and the page starts that much sooner.
 */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|webmanifest|txt)$/;
/** Below this a compressed copy saves less than the headers it costs. */
export const MIN_SIZE_BYTES = 1024;

export const ENCODINGS = [
  {
    extension: '.br',
    compress: (source: Buffer) => promisify(brotliCompress)(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  },
  { extension: '.gz', compress: (source: Buffer) => promisify(gzip)(source, { level: 9 }) },
] as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Compresses every file worth it under `dir`; a copy no smaller than its source is not written. */
export async function precompressDir(dir: string): Promise<string[]> {
  const sources = filesUnder(dir).filter((file) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_SIZE_BYTES);
  const written: string[] = [];
  await Promise.all(
    sources.flatMap((file) => {
      const source = readFileSync(file);
      return ENCODINGS.map(async ({ extension, compress }) => {
        const compressed = await compress(source);
        if (compressed.length >= source.length) return;
        writeFileSync(file + extension, compressed);
        written.push(file + extension);
      });
    }),
  );
  return written;
}

export function precompress(): Plugin {
  // After every other plugin wrote its files, the service worker of vite-plugin-pwa included.
  // The copies stay out of its precache: its glob matches no .br or .gz.
  return afterBuild('precompress', 'post', async (config) => {
    await precompressDir(path.resolve(config.root, config.build.outDir));
  });
}
