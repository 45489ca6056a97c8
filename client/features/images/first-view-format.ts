import dicomParser, { type DataSet } from 'dicom-parser';

/**
 * What the first view (first-view-pixels.ts) needs of an image's header: where its pixels are and
 * how cornerstone3D will show them, so the quick picture and the full one look the same. Only the
 * plain cases are drawn early: uncompressed little-endian greyscale of 8 or 16 bits, square pixels,
 * a linear window. Anything else (compressed, big endian, colour, a sigmoid or a LUT) waits for
 * cornerstone, whose drawing is the only one then.
 */
export type PreviewFormat = {
  rows: number;
  columns: number;
  bitsAllocated: 8 | 16;
  /** Pixel Representation 1: two's complement, sign-extended from Bits Stored as cornerstone does. */
  signed: boolean;
  bitsStored: number;
  /** Where the first frame's pixels start in the file. */
  pixelOffset: number;
  /** Modality LUT: the displayed value is stored × slope + intercept. */
  slope: number;
  intercept: number;
  /** The image's own window in displayed values; null: cornerstone takes the pixels' range. */
  window: VoiRange | null;
  /** MONOCHROME1 stores dense tissue as low values; cornerstone inverts it. */
  invert: boolean;
  /** Patient Orientation (0020,0020) as "A\R", for the radiologists' hanging (orientation.ts). */
  patientOrientation: string | undefined;
};

export type VoiRange = { lower: number; upper: number };

/** `more`: the header goes on past the bytes read so far; `read`: the format, null when cornerstone alone can draw it. */
export type HeaderRead = { kind: 'more' } | { kind: 'read'; format: PreviewFormat | null };

const PIXEL_DATA = 'x7fe00010';
const UNCOMPRESSED_LITTLE_ENDIAN = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1']);

/**
 * Reads the header from the first bytes of a DICOM file as they arrive, up to the pixel data's own
 * header. `complete`: these are all the bytes there will be.
 */
export function readPreviewHeader(bytes: Uint8Array, complete: boolean): HeaderRead {
  let dataSet: DataSet;
  try {
    dataSet = dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
  } catch {
    // A header cut off by the end of what has arrived so far, or one dicom-parser cannot read.
    return complete ? { kind: 'read', format: null } : { kind: 'more' };
  }
  if (!dataSet.elements[PIXEL_DATA]) return complete ? { kind: 'read', format: null } : { kind: 'more' };
  return { kind: 'read', format: previewFormat(dataSet) };
}

function previewFormat(dataSet: DataSet): PreviewFormat | null {
  const pixels = dataSet.elements[PIXEL_DATA]!;
  const transferSyntax = dataSet.string('x00020010')?.replace(/\0/g, '').trim();
  if (!transferSyntax || !UNCOMPRESSED_LITTLE_ENDIAN.has(transferSyntax) || pixels.hadUndefinedLength) return null;
  const rows = dataSet.uint16('x00280010') ?? 0;
  const columns = dataSet.uint16('x00280011') ?? 0;
  const bitsAllocated = dataSet.uint16('x00280100');
  const bitsStored = dataSet.uint16('x00280101') ?? bitsAllocated ?? 0;
  const photometric = dataSet.string('x00280004')?.trim();
  if (rows === 0 || columns === 0 || (bitsAllocated !== 8 && bitsAllocated !== 16)) return null;
  if ((dataSet.uint16('x00280002') ?? 1) !== 1 || (photometric !== 'MONOCHROME1' && photometric !== 'MONOCHROME2')) return null;
  if (pixels.length < rows * columns * (bitsAllocated / 8)) return null;
  // A 16-bit view of the file needs an even offset (always so in a well-formed file).
  if (bitsAllocated === 16 && pixels.dataOffset % 2 !== 0) return null;
  // Tables cornerstone applies that a linear mapping cannot imitate.
  if (dataSet.elements.x00283000 || dataSet.elements.x00283010) return null;
  if (!squarePixels(dataSet, 'x00280030') || !squarePixels(dataSet, 'x00181164')) return null;
  const slope = dataSet.floatString('x00281053') ?? 1;
  const intercept = dataSet.floatString('x00281052') ?? 0;
  const window = imageWindow(dataSet);
  if (window === undefined || !Number.isFinite(slope) || !Number.isFinite(intercept) || slope === 0) return null;
  return {
    rows,
    columns,
    bitsAllocated,
    signed: dataSet.uint16('x00280103') === 1,
    bitsStored,
    pixelOffset: pixels.dataOffset,
    slope,
    intercept,
    window,
    invert: photometric === 'MONOCHROME1',
    patientOrientation: dataSet.string('x00200020')?.trim() || undefined,
  };
}

/** Non-square pixels stretch cornerstone's picture; they are rare enough to leave to it. */
function squarePixels(dataSet: DataSet, tag: string): boolean {
  if (!dataSet.elements[tag]) return true;
  const row = dataSet.floatString(tag, 0);
  const column = dataSet.floatString(tag, 1);
  return row === undefined || column === undefined || Math.abs(row - column) <= 1e-6 * Math.max(row, column);
}

/**
 * The window cornerstone opens the image with: the first Window Center/Width (0028,1050/1051),
 * turned into a range as cornerstone's toLowHighRange does for LINEAR and LINEAR_EXACT. Null
 * without one (cornerstone then takes the pixels' range); undefined for a function it draws
 * otherwise (SIGMOID) or a width it would not accept.
 */
function imageWindow(dataSet: DataSet): VoiRange | null | undefined {
  const center = dataSet.floatString('x00281050', 0);
  const width = dataSet.floatString('x00281051', 0);
  const fn = dataSet.string('x00281056', 0)?.trim().toUpperCase() || 'LINEAR';
  if (fn !== 'LINEAR' && fn !== 'LINEAR_EXACT') return undefined;
  if (center === undefined || width === undefined || !Number.isFinite(center) || !Number.isFinite(width)) return null;
  const range =
    fn === 'LINEAR'
      ? { lower: center - 0.5 - (width - 1) / 2, upper: center - 0.5 + (width - 1) / 2 }
      : { lower: center - width / 2, upper: center + width / 2 };
  return range.upper > range.lower ? range : undefined;
}
