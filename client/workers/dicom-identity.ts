import dicomParser, { type DataSet } from 'dicom-parser';

/** What the page needs to know of a file before sending it. */
export type DicomIdentity = {
  /** SOP Instance UID, as the server reads it; null when the header does not give a valid one. */
  sopInstanceUid: string | null;
  /** A DICOMDIR (a disc's table of contents): never sent. */
  dicomdir: boolean;
};

/**
 * Only the start of the file: the SOP Instance UID (0008,0018) sits near the top of every header,
 * so a 50 MB image costs no more than a 2 KB one. Parsing 64 kB takes well under a millisecond.
 * It runs in the marker scan's worker (dicom-marker.worker.ts), which holds the files already.
 */
export const IDENTITY_BYTES = 64 * 1024;

const SOP_INSTANCE_UID = 'x00080018';
const MEDIA_SOP_INSTANCE_UID = 'x00020003';
const MEDIA_SOP_CLASS_UID = 'x00020002';
const SOP_CLASS_UID = 'x00080016';
/** Media Storage Directory Storage. */
const MEDIA_DIRECTORY_SOP_CLASS = '1.2.840.10008.1.3.10';
const UID = /^[0-9]+(\.[0-9]+)*$/;
const MAX_UID_LENGTH = 64;

const UNKNOWN: DicomIdentity = { sopInstanceUid: null, dicomdir: false };

/** The elements parsed before the slice (or the header) ended: parseDicom throws them along with its error. */
function parsedElements(bytes: Uint8Array): DataSet | null {
  try {
    return dicomParser.parseDicom(bytes, { untilTag: SOP_INSTANCE_UID });
  } catch (error) {
    const partial = (error as { dataSet?: DataSet } | null)?.dataSet;
    return partial ?? null;
  }
}

function validUid(value: string | undefined): string | null {
  const uid = value?.replace(/[\0 ]+$/, '').trim();
  return uid && uid.length <= MAX_UID_LENGTH && UID.test(uid) ? uid : null;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Reads the identity from the file's first bytes. A file whose header cannot be read is still
 * sent: the server then says why it refuses it.
 */
export async function readDicomIdentity(file: Blob, path: string, size: number): Promise<DicomIdentity> {
  if (baseName(path).toUpperCase() === 'DICOMDIR') return { sopInstanceUid: null, dicomdir: true };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.slice(0, Math.min(size, IDENTITY_BYTES)).arrayBuffer());
  } catch {
    return UNKNOWN;
  }
  const dataSet = parsedElements(bytes);
  if (!dataSet) return UNKNOWN;
  const sopClass = dataSet.string(SOP_CLASS_UID) ?? dataSet.string(MEDIA_SOP_CLASS_UID);
  if (validUid(sopClass) === MEDIA_DIRECTORY_SOP_CLASS) return { sopInstanceUid: null, dicomdir: true };
  // The same preference as the server's: the data set's own UID, else the file meta header's.
  return {
    sopInstanceUid: validUid(dataSet.string(SOP_INSTANCE_UID)) ?? validUid(dataSet.string(MEDIA_SOP_INSTANCE_UID)),
    dicomdir: false,
  };
}
