/**
 * What a viewport shows: the image, or why not. `undecodable`: the bytes arrived but no decoder
 * could read them (an unsupported syntax, a damaged file); `loadFailed`: they did not arrive;
 * `notKept`: offline, and this image's bytes are not on the device.
 */
export type ViewportStatus = 'loading' | 'drawn' | 'undecodable' | 'loadFailed' | 'notKept';

/**
 * Tells a failed download from a failed decoding in a rejection of cornerstone's DICOM loader:
 * a failed request rejects with the XMLHttpRequest itself (wrapped as `{ error: xhr }` by the
 * wadouri loader); a decoding or parsing failure with the decoder's error, often beside the
 * parsed `dataSet`.
 */
export function classifyLoadError(error: unknown): Extract<ViewportStatus, 'undecodable' | 'loadFailed'> {
  const inner = typeof error === 'object' && error !== null && 'error' in error ? (error as { error: unknown }).error : error;
  return isRequest(inner) || isRequest(error) ? 'loadFailed' : 'undecodable';
}

function isRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'readyState' in value && 'status' in value;
}

/**
 * Whether a decoded image holds nothing: every pixel the same value. A cut-off JPEG 2000 stream
 * decodes "successfully" into such a flat picture on some decoders; showing it would be drawing
 * garbage, so the viewer says it cannot show the image instead. No mammogram is flat.
 */
export function isBlankDecode(image: { minPixelValue?: number; maxPixelValue?: number } | undefined): boolean {
  return image !== undefined && image.minPixelValue !== undefined && image.minPixelValue === image.maxPixelValue;
}

/** JPEG, JPEG-LS, JPEG 2000 and HTJ2K (1.2.840.10008.1.2.4.50-.203): each codestream ends with FF D9. */
const ENDS_WITH_EOI = /^1\.2\.840\.10008\.1\.2\.4\.(5\d|6\d|70|8[01]|9[0-9]|20[1-3])$/;

/**
 * Whether a compressed frame stops before its end marker: JPEG's EOI and JPEG 2000's EOC are both
 * FF D9, the last bytes of a complete codestream (before at most a padding byte of zero). Some
 * decoders turn a cut-off stream into a dim, plausible-looking picture instead of failing; this
 * tells them apart so the viewer says it cannot show the image rather than drawing garbage.
 */
export function isCutShort(transferSyntaxUid: string | undefined, frameTail: Uint8Array | undefined): boolean {
  if (!transferSyntaxUid || !ENDS_WITH_EOI.test(transferSyntaxUid) || !frameTail || frameTail.length < 2) return false;
  let end = frameTail.length;
  if (frameTail[end - 1] === 0) end--;
  return !(frameTail[end - 2] === 0xff && frameTail[end - 1] === 0xd9);
}
