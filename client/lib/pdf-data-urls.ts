/**
 * Where pdf.js finds its data files, copied into the build by scripts/vite-pdfjs-assets.ts: the
 * WebAssembly decoders of JPEG 2000 and JBIG2 images (scanned documents), the standard fonts,
 * the CMaps and the CMYK profile. Absolute URLs, because the worker fetches them itself; the
 * pdfjs-dist version in the path lets the server cache /assets for good.
 */
export function pdfjsDataUrls(
  baseUri: string,
  pdfjsVersion: string,
): { wasmUrl: string; standardFontDataUrl: string; cMapUrl: string; iccUrl: string } {
  const url = (directory: string) => new URL(`/assets/pdfjs-${pdfjsVersion}/${directory}/`, baseUri).href;
  return { wasmUrl: url('wasm'), standardFontDataUrl: url('standard_fonts'), cMapUrl: url('cmaps'), iccUrl: url('iccs') };
}
