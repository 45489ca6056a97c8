import { describe, expect, it } from 'vitest';
import { isViewerCode, missingViewerCode, splitManifest, staleViewerCode } from './viewer-code';

/** File names as a build writes them (vite.config.ts), with the manifest's revisions. */
const VIEWER_FILES = [
  'assets/cornerstone3d-CghWulXD.js',
  'assets/decodeImageFrameWorker-CuDM5Ok6.js',
  'assets/images-mCELGyfq.css',
  'assets/charlswasm_decode-CEN7ucFR.wasm',
  'assets/openjphjs-odeu-u12.wasm',
];
const APP_FILES = [
  'index.html',
  'assets/index-CYzWWznf.js',
  'assets/style-BV2Lf7qR.css',
  // The viewer's page, its engine wrapper and the upload page's thumbnails are small: precached.
  'assets/ViewerPage-oBOJeUD2.js',
  'assets/ImageSetViewer-Cb6CTcml.js',
  'assets/cornerstone-BoqWMak0.js',
  'assets/dicom-shared-7mEDd5xy.js',
  // pdf.js's worker and its own wasm belong to the documents, not to the viewer.
  'assets/pdf.worker.min-CIqJB0yW.mjs',
  'assets/pdfjs-6.5.438/wasm/openjpeg.wasm',
];

describe("the image viewer's code", () => {
  it.each(VIEWER_FILES)('counts %s as the viewer code', (file) => {
    expect(isViewerCode(file)).toBe(true);
    expect(isViewerCode(`/${file}`)).toBe(true);
  });

  it.each(APP_FILES)('leaves %s to the precache', (file) => {
    expect(isViewerCode(file)).toBe(false);
  });

  it('splits the build manifest into what is precached and the viewer code, keeping the entries as they are', () => {
    const entries = [...APP_FILES, ...VIEWER_FILES].map((url) => ({ url, revision: null }));
    const { precached, viewerCode } = splitManifest(entries);
    expect(precached.map((entry) => entry.url)).toEqual(APP_FILES);
    expect(precached[0]).toBe(entries[0]);
    expect(viewerCode).toEqual(VIEWER_FILES);
  });

  it('names the parts a build manifest lacks, so the build fails instead of offline viewing', () => {
    expect(missingViewerCode([...APP_FILES, ...VIEWER_FILES])).toEqual([]);
    const withoutScript = [...APP_FILES, ...VIEWER_FILES].filter((file) => !file.includes('cornerstone3d'));
    expect(missingViewerCode(withoutScript)).toEqual(['cornerstone3D']);
    expect(missingViewerCode(APP_FILES)).toEqual(['cornerstone3D', 'decodingWorker', 'stylesheet', 'codecs']);
  });

  it('deletes only the kept files of other versions', () => {
    const current = new Set(['https://portal.example/assets/cornerstone3d-NEW.js', 'https://portal.example/assets/a-1.wasm']);
    const kept = ['https://portal.example/assets/cornerstone3d-OLD.js', 'https://portal.example/assets/a-1.wasm'];
    expect(staleViewerCode(kept, current)).toEqual(['https://portal.example/assets/cornerstone3d-OLD.js']);
  });
});
