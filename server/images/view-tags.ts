import dicomParser, { type DataSet } from 'dicom-parser';

/** What the viewer hangs an image by, read from the stored file's header (the columns of migration 009). */
export type ViewTags = {
  laterality: 'R' | 'L' | null;
  viewPosition: string | null;
  transferSyntaxUid: string | null;
  rows: number | null;
  columns: number | null;
  /** Orders the images that are not one of the four standard views. */
  instanceNumber: number | null;
};

export const NO_VIEW_TAGS: ViewTags = {
  laterality: null,
  viewPosition: null,
  transferSyntaxUid: null,
  rows: null,
  columns: null,
  instanceNumber: null,
};

const PIXEL_DATA = 'x7fe00010';
const TAG = {
  transferSyntaxUid: 'x00020010',
  viewPosition: 'x00185101',
  instanceNumber: 'x00200013',
  laterality: 'x00200060',
  imageLaterality: 'x00200062',
  rows: 'x00280010',
  columns: 'x00280011',
} as const;

/**
 * The header is read in growing slices from the start and parsing stops at the pixel data, so a
 * 50 MB image costs one 64 KB read. A header longer than the cap (a huge private sequence) is
 * treated as unreadable rather than read whole.
 */
const FIRST_READ_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

const UID = /^[0-9]+(\.[0-9]+)*$/;
const MAX_UID_LENGTH = 64;
/** A CS value is at most 16 characters (PS3.5 6.2). */
const MAX_CS_LENGTH = 16;
const MAX_INTEGER = 2_147_483_647;

/**
 * Reads the view tags of a stored DICOM file. A file that does not parse answers NO_VIEW_TAGS;
 * only a file that cannot be opened or read throws (the caller then tries again another time).
 */
export async function readViewTags(read: ReadBytes): Promise<ViewTags> {
  const dataSet = await readHeader(read);
  return dataSet ? viewTagsOf(dataSet) : NO_VIEW_TAGS;
}

/** Up to `length` bytes of the file from `start`, fewer at its end (`FileStorage.readBytes` of one key). */
export type ReadBytes = (start: number, length: number) => Promise<Uint8Array>;

/**
 * Parses up to the pixel data; a slice that ends inside the header fails or stops short, so it
 * grows. A read answering fewer bytes than asked for holds the whole file (no size is asked first:
 * on object storage that would be one more request).
 */
async function readHeader(read: ReadBytes): Promise<DataSet | undefined> {
  let length = FIRST_READ_BYTES;
  for (;;) {
    const bytes = await read(0, length);
    const dataSet = tryParse(bytes);
    const wholeFile = bytes.length < length;
    if (dataSet && (dataSet.elements[PIXEL_DATA] || wholeFile)) return dataSet;
    if (wholeFile || length >= MAX_HEADER_BYTES) return undefined;
    length = Math.min(length * 4, MAX_HEADER_BYTES);
  }
}

function tryParse(bytes: Uint8Array): DataSet | undefined {
  try {
    return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
  } catch {
    // dicom-parser throws strings and objects as well as errors; any of them means "not parsed".
    return undefined;
  }
}

function viewTagsOf(dataSet: DataSet): ViewTags {
  const transferSyntaxUid = text(dataSet, TAG.transferSyntaxUid);
  const viewPosition = text(dataSet, TAG.viewPosition)?.toUpperCase();
  return {
    laterality: sideOf(text(dataSet, TAG.imageLaterality)) ?? sideOf(text(dataSet, TAG.laterality)),
    viewPosition: viewPosition && viewPosition.length <= MAX_CS_LENGTH ? viewPosition : null,
    transferSyntaxUid:
      transferSyntaxUid && transferSyntaxUid.length <= MAX_UID_LENGTH && UID.test(transferSyntaxUid) ? transferSyntaxUid : null,
    rows: dimension(dataSet, TAG.rows),
    columns: dimension(dataSet, TAG.columns),
    instanceNumber: integer(text(dataSet, TAG.instanceNumber)),
  };
}

/** A string value without its padding; dicom-parser's own `string` trims trailing spaces only. */
function text(dataSet: DataSet, tag: string): string | undefined {
  const value = dataSet.string(tag)?.replace(/\0+$/, '').trim();
  return value ? value : undefined;
}

/** 'B' (both) and 'U' (unpaired) name no side a mammogram is hung on. */
function sideOf(value: string | undefined): 'R' | 'L' | null {
  const side = value?.toUpperCase();
  return side === 'R' || side === 'L' ? side : null;
}

function dimension(dataSet: DataSet, tag: string): number | null {
  const element = dataSet.elements[tag];
  if (!element || element.length !== 2) return null;
  const value = dataSet.uint16(tag);
  return value === undefined || value === 0 ? null : value;
}

function integer(value: string | undefined): number | null {
  if (value === undefined || !/^[+-]?\d{1,10}$/.test(value)) return null;
  const number = Number(value);
  return Math.abs(number) <= MAX_INTEGER ? number : null;
}
