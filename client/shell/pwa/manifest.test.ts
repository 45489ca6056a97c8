import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import pl from '../../i18n/pl.json';

const publicDir = fileURLToPath(new URL('../../../public/', import.meta.url));

type ManifestIcon = { src: string; sizes: string; type: string; purpose: string };
type Manifest = Record<string, unknown> & { icons: ManifestIcon[] };

async function readManifest(): Promise<Manifest> {
  return JSON.parse(await readFile(`${publicDir}manifest.webmanifest`, 'utf8')) as Manifest;
}

/** Width and height from a PNG's IHDR chunk, which always follows the 8-byte signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('web app manifest', () => {
  it('installs the portal as a Polish standalone app covering the whole site', async () => {
    const manifest = await readManifest();
    expect(manifest).toMatchObject({
      name: pl['app.name'],
      short_name: 'Mammografia',
      lang: 'pl',
      start_url: '/',
      scope: '/',
      display: 'standalone',
    });
    expect(manifest.description).toEqual(expect.any(String));
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it.each([
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['192x192', 'maskable'],
    ['512x512', 'maskable'],
  ])('has a %s PNG icon for purpose "%s" at exactly that size', async (sizes, purpose) => {
    const manifest = await readManifest();
    const icon = manifest.icons.find((candidate) => candidate.sizes === sizes && candidate.purpose === purpose);
    expect(icon?.type).toBe('image/png');

    const [width, height] = sizes.split('x').map(Number);
    expect(pngSize(await readFile(`${publicDir}${icon!.src.replace(/^\//, '')}`))).toEqual({ width, height });
  });
});
