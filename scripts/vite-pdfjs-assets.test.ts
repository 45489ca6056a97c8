import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfjsDataUrls } from '../client/lib/pdf-data-urls';
import { pdfjsAssetDir, pdfjsDataFiles } from './vite-pdfjs-assets';

const pdfjsVersion = (JSON.parse(readFileSync('node_modules/pdfjs-dist/package.json', 'utf8')) as { version: string }).version;

describe('pdf.js data files in the build', () => {
  const names = pdfjsDataFiles().map((file) => file.name);

  it('holds the files pdf.js asks for by name: the image decoders, a standard font, a CMap, the CMYK profile', () => {
    for (const name of [
      'wasm/openjpeg.wasm',
      'wasm/jbig2.wasm',
      'wasm/qcms_bg.wasm',
      'standard_fonts/FoxitSerif.pfb',
      'standard_fonts/LiberationSans-Regular.ttf',
      'cmaps/UniJIS-UCS2-H.bcmap',
      'iccs/CGATS001Compat-v2-micro.icc',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('leaves out what the portal never runs: the JavaScript fallbacks and PDF scripting', () => {
    expect(names.filter((name) => /\.js$|quickjs/.test(name))).toEqual([]);
  });

  it('lives where client/lib/pdf.ts looks for it, versioned so /assets may be cached for good', () => {
    const urls = pdfjsDataUrls('https://portal.example/screening/41', pdfjsVersion);
    expect(urls).toEqual({
      wasmUrl: `https://portal.example/${pdfjsAssetDir(pdfjsVersion)}/wasm/`,
      standardFontDataUrl: `https://portal.example/${pdfjsAssetDir(pdfjsVersion)}/standard_fonts/`,
      cMapUrl: `https://portal.example/${pdfjsAssetDir(pdfjsVersion)}/cmaps/`,
      iccUrl: `https://portal.example/${pdfjsAssetDir(pdfjsVersion)}/iccs/`,
    });
  });
});
