import dicomParser, { type DataSet } from 'dicom-parser';
import { DICOM_MARKER, DICOM_MARKER_OFFSET, type UploadRefusalReason } from '../../common/types/upload';
import { FileBytes } from './file-bytes';

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
/**
 * The inspection with the header as parsed (up to the pixel data), for a caller that reads more
 * of it; for a refused file what could be parsed of it, if anything.
 */
type ParsedInspection = { inspection: Inspection; dataSet?: DataSet };

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
 * the file's length on disk, against which the pixel data must be complete. `head`: its first
 * bytes, when the receiver kept them in memory; the file is opened only for what lies beyond.
 */
export async function inspectDicomFile(filePath: string, size: number, clientName: string, head?: Buffer): Promise<Inspection> {
  return (await inspectParsed(filePath, size, clientName, head)).inspection;
}

/** The same, with the parsed header (STOW-RS reads more of it: server/dicomweb/stow-header.ts). */
export async function inspectParsed(filePath: string, size: number, clientName: string, head?: Buffer): Promise<ParsedInspection> {
  const bytes = new FileBytes(filePath, size, head);
  try {
    return await inspect(bytes, clientName);
  } finally {
    await bytes.close();
  }
}

async function inspect(bytes: FileBytes, clientName: string): Promise<ParsedInspection> {
  if (!(await hasMarker(bytes))) return refused('not_dicom');
  if (baseName(clientName).toUpperCase() === 'DICOMDIR') return refused('dicomdir');

  const { dataSet, complete } = await readHeader(bytes);
  if (!dataSet || !complete) return refused('unreadable', dataSet);
  const sopClassUid = dataSet.string('x00080016') ?? dataSet.string('x00020002');
  if (sopClassUid === MEDIA_DIRECTORY_SOP_CLASS) return refused('dicomdir', dataSet);

  const pixelData = dataSet.elements[PIXEL_DATA] ?? OTHER_PIXEL_DATA.map((tag) => dataSet.elements[tag]).find(Boolean);
  if (!pixelData) return refused('not_image', dataSet);
  // A deflated data set is checked by inflating it whole: a cut stream fails in the parser.
  const deflated = dataSet.string('x00020010') === DEFLATED_TRANSFER_SYNTAX;
  if (!deflated && !(await pixelDataComplete(bytes, pixelData))) return refused('unreadable', dataSet);

  const header = {
    sopClassUid,
    sopInstanceUid: dataSet.string('x00080018') ?? dataSet.string('x00020003'),
    studyInstanceUid: dataSet.string('x0020000d'),
    seriesInstanceUid: dataSet.string('x0020000e'),
  };
  if (!Object.values(header).every(isUid)) return refused('unreadable', dataSet);
  const modality = dataSet.string('x00080060')?.trim();
  const image: Inspection = {
    kind: 'image',
    header: {
      ...(header as Record<keyof typeof header, string>),
      modality: modality && modality.length <= MAX_MODALITY_LENGTH ? modality : null,
      studyDate: calendarDate(dataSet.string('x00080020')),
    },
  };
  return { inspection: image, dataSet };
}

function refused(reason: UploadRefusalReason, dataSet?: DataSet): ParsedInspection {
  return { inspection: { kind: 'refused', reason }, dataSet };
}

/** Only the four marker bytes are read (DECISIONS.md 15). */
async function hasMarker(bytes: FileBytes): Promise<boolean> {
  if (bytes.size < DICOM_MARKER_OFFSET + DICOM_MARKER.length) return false;
  const marker = await bytes.read(DICOM_MARKER_OFFSET, DICOM_MARKER.length);
  return marker.toString('latin1') === DICOM_MARKER;
}

/**
 * Parses up to the pixel data. A slice that ends mid-element fails or stops short of the pixel
 * data, so the slice grows until the pixel data is reached or the whole file was read. Not
 * `complete`: the header could not be read whole; `dataSet` is then what was parsed before the
 * parser failed, if anything (enough to name the instance in an answer).
 */
async function readHeader(bytes: FileBytes): Promise<{ dataSet: DataSet | undefined; complete: boolean }> {
  let length = Math.min(bytes.size, FIRST_READ_BYTES);
  for (;;) {
    const { dataSet, failed } = tryParse(await bytes.read(0, length));
    const wholeFile = length === bytes.size;
    if (dataSet && !failed && (dataSet.elements[PIXEL_DATA] || wholeFile)) return { dataSet, complete: true };
    if (wholeFile || length >= MAX_HEADER_BYTES) return { dataSet, complete: false };
    length = Math.min(bytes.size, length * 4, MAX_HEADER_BYTES);
  }
}

function tryParse(bytes: Buffer): { dataSet: DataSet | undefined; failed: boolean } {
  try {
    return { dataSet: dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA }), failed: false };
  } catch (error) {
    // dicom-parser throws strings and objects as well as errors, some with the part it parsed.
    return { dataSet: (error as { dataSet?: DataSet } | undefined)?.dataSet, failed: true };
  }
}

/**
 * A truncated image (a copy cut short) parses but its pixel data runs past the end of the file:
 * a value of known length must fit the file; encapsulated (compressed) pixel data must end with
 * its sequence delimiter after whole fragments.
 */
async function pixelDataComplete(bytes: FileBytes, element: dicomParser.Element): Promise<boolean> {
  if (element.length !== UNDEFINED_LENGTH) return element.dataOffset + element.length <= bytes.size;
  return encapsulatedPixelDataEnds(bytes, element.dataOffset);
}

const ITEM_GROUP = 0xfffe;
const ITEM = 0xe000;
const SEQUENCE_DELIMITER = 0xe0dd;
const ITEM_HEADER_BYTES = 8;
const WINDOW_BYTES = 64 * 1024;

/** Walks the fragment items (headers only, through a small window) to the sequence delimiter. */
async function encapsulatedPixelDataEnds(bytes: FileBytes, start: number): Promise<boolean> {
  let window: Buffer = Buffer.alloc(0);
  let windowStart = 0;
  let position = start;
  while (position + ITEM_HEADER_BYTES <= bytes.size) {
    if (position < windowStart || position + ITEM_HEADER_BYTES > windowStart + window.length) {
      windowStart = position;
      window = await bytes.read(position, WINDOW_BYTES);
      if (window.length < ITEM_HEADER_BYTES) return false;
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
