import { open, type FileHandle } from 'node:fs/promises';
import dicomParser, { type DataSet } from 'dicom-parser';
import { DICOM_MARKER, DICOM_MARKER_OFFSET, type UploadRefusalReason } from '../../common/types/upload';

/** What the portal records of one uploaded image (the columns of `dicom_instances`). */
export type DicomHeader = {
  sopClassUid: string;
  sopInstanceUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  modality: string | null;
  /** YYYY-MM-DD, or null when the header has none or an impossible one. */
  studyDate: string | null;
};

export type Inspection = { kind: 'image'; header: DicomHeader } | { kind: 'refused'; reason: UploadRefusalReason };

/** Media Storage Directory Storage: a DICOMDIR, an index of a disc, never an image. */
const MEDIA_DIRECTORY_SOP_CLASS = '1.2.840.10008.1.3.10';
const DEFLATED_TRANSFER_SYNTAX = '1.2.840.10008.1.2.1.99';
const PIXEL_DATA = 'x7fe00010';
/** Float and Double Float Pixel Data (parametric maps) come before Pixel Data and are images too. */
const OTHER_PIXEL_DATA = ['x7fe00008', 'x7fe00009'];
const UNDEFINED_LENGTH = 0xffffffff;

/**
 * The header is read from the start of the file in growing slices, never the whole image: most
 * headers fit the first read; a header longer than the last slice is refused as unreadable.
 */
const FIRST_READ_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

const UID = /^[0-9]+(\.[0-9]+)*$/;
const MAX_UID_LENGTH = 64;
const MAX_MODALITY_LENGTH = 16;

/**
 * Decides whether an uploaded file is a storable DICOM image and reads what the portal keeps of
 * it (DECISIONS.md 15). `clientName` is used only to recognise a file called DICOMDIR; `size` is
 * the file's length on disk, against which the pixel data must be complete.
 */
export async function inspectDicomFile(filePath: string, size: number, clientName: string): Promise<Inspection> {
  const handle = await open(filePath, 'r');
  try {
    return await inspect(handle, size, clientName);
  } finally {
    await handle.close();
  }
}

async function inspect(handle: FileHandle, size: number, clientName: string): Promise<Inspection> {
  if (!(await hasMarker(handle, size))) return refused('not_dicom');
  if (baseName(clientName).toUpperCase() === 'DICOMDIR') return refused('dicomdir');

  const dataSet = await readHeader(handle, size);
  if (!dataSet) return refused('unreadable');
  const sopClassUid = dataSet.string('x00080016') ?? dataSet.string('x00020002');
  if (sopClassUid === MEDIA_DIRECTORY_SOP_CLASS) return refused('dicomdir');

  const pixelData = dataSet.elements[PIXEL_DATA] ?? OTHER_PIXEL_DATA.map((tag) => dataSet.elements[tag]).find(Boolean);
  if (!pixelData) return refused('not_image');
  // A deflated data set is checked by inflating it whole: a cut stream fails in the parser.
  const deflated = dataSet.string('x00020010') === DEFLATED_TRANSFER_SYNTAX;
  if (!deflated && !(await pixelDataComplete(handle, size, pixelData))) return refused('unreadable');

  const header = {
    sopClassUid,
    sopInstanceUid: dataSet.string('x00080018') ?? dataSet.string('x00020003'),
    studyInstanceUid: dataSet.string('x0020000d'),
    seriesInstanceUid: dataSet.string('x0020000e'),
  };
  if (!Object.values(header).every(isUid)) return refused('unreadable');
  const modality = dataSet.string('x00080060')?.trim();
  return {
    kind: 'image',
    header: {
      ...(header as Record<keyof typeof header, string>),
      modality: modality && modality.length <= MAX_MODALITY_LENGTH ? modality : null,
      studyDate: calendarDate(dataSet.string('x00080020')),
    },
  };
}

function refused(reason: UploadRefusalReason): Inspection {
  return { kind: 'refused', reason };
}

/** Only the four marker bytes are read (DECISIONS.md 15). */
async function hasMarker(handle: FileHandle, size: number): Promise<boolean> {
  if (size < DICOM_MARKER_OFFSET + DICOM_MARKER.length) return false;
  const marker = await readAt(handle, DICOM_MARKER_OFFSET, DICOM_MARKER.length);
  return marker.toString('latin1') === DICOM_MARKER;
}

/**
 * Parses up to the pixel data. A slice that ends mid-element fails or stops short of the pixel
 * data, so the slice grows until the pixel data is reached or the whole file was read.
 */
async function readHeader(handle: FileHandle, size: number): Promise<DataSet | undefined> {
  let length = Math.min(size, FIRST_READ_BYTES);
  for (;;) {
    const dataSet = tryParse(await readAt(handle, 0, length));
    const wholeFile = length === size;
    if (dataSet && (dataSet.elements[PIXEL_DATA] || wholeFile)) return dataSet;
    if (wholeFile || length >= MAX_HEADER_BYTES) return undefined;
    length = Math.min(size, length * 4, MAX_HEADER_BYTES);
  }
}

function tryParse(bytes: Buffer): DataSet | undefined {
  try {
    return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
  } catch {
    // dicom-parser throws strings and objects as well as errors; any of them means "not parsed".
    return undefined;
  }
}

/**
 * A truncated image (a copy cut short) parses but its pixel data runs past the end of the file:
 * a value of known length must fit the file; encapsulated (compressed) pixel data must end with
 * its sequence delimiter after whole fragments.
 */
async function pixelDataComplete(handle: FileHandle, size: number, element: dicomParser.Element): Promise<boolean> {
  if (element.length !== UNDEFINED_LENGTH) return element.dataOffset + element.length <= size;
  return encapsulatedPixelDataEnds(handle, size, element.dataOffset);
}

const ITEM_GROUP = 0xfffe;
const ITEM = 0xe000;
const SEQUENCE_DELIMITER = 0xe0dd;
const ITEM_HEADER_BYTES = 8;
const WINDOW_BYTES = 64 * 1024;

/** Walks the fragment items (headers only, through a small window) to the sequence delimiter. */
async function encapsulatedPixelDataEnds(handle: FileHandle, size: number, start: number): Promise<boolean> {
  const window = Buffer.alloc(WINDOW_BYTES);
  let windowStart = 0;
  let windowLength = 0;
  let position = start;
  while (position + ITEM_HEADER_BYTES <= size) {
    if (position < windowStart || position + ITEM_HEADER_BYTES > windowStart + windowLength) {
      windowStart = position;
      windowLength = (await handle.read(window, 0, WINDOW_BYTES, position)).bytesRead;
      if (windowLength < ITEM_HEADER_BYTES) return false;
    }
    const offset = position - windowStart;
    const group = window.readUInt16LE(offset);
    const tag = window.readUInt16LE(offset + 2);
    const length = window.readUInt32LE(offset + 4);
    if (group !== ITEM_GROUP) return false;
    if (tag === SEQUENCE_DELIMITER) return true;
    if (tag !== ITEM || length === UNDEFINED_LENGTH) return false;
    position += ITEM_HEADER_BYTES + length;
  }
  return false;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function isUid(value: string | undefined): value is string {
  return value !== undefined && value.length <= MAX_UID_LENGTH && UID.test(value);
}

/** DA is YYYYMMDD (old ACR-NEMA files: YYYY.MM.DD); anything else, or no such day, is no date. */
export function calendarDate(value: string | undefined): string | null {
  const match = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(value?.trim() ?? '');
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const exists = year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/** The last part of a name the browser sent, whichever separator it used. */
function baseName(clientName: string): string {
  return clientName.split(/[/\\]/).pop() ?? '';
}
