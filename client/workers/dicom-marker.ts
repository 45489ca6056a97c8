import { DICOM_MARKER, DICOM_MARKER_OFFSET } from '@common/types/upload';

/** What the scan found for one file, one byte per file so a whole batch transfers as one buffer. */
export const MarkerVerdict = { notDicom: 0, dicom: 1, unreadable: 2 } as const;
export type MarkerVerdict = (typeof MarkerVerdict)[keyof typeof MarkerVerdict];

const MARKER_BYTES = Uint8Array.from(DICOM_MARKER, (letter) => letter.charCodeAt(0));
const MARKER_END = DICOM_MARKER_OFFSET + MARKER_BYTES.length;
/** Reads in flight: enough to keep the browser's file access busy while the worker waits. */
export const READS_IN_FLIGHT = 64;

/**
 * DECISIONS.md 15: a file is kept only with `DICM` at bytes 128-131. Only those four bytes are
 * read: a 50 MB image costs as little as a 2 KB one; a file too short for the marker shows in the
 * slice's own size, with nothing to read.
 */
export async function markerVerdict(file: Blob): Promise<MarkerVerdict> {
  const marker = file.slice(DICOM_MARKER_OFFSET, MARKER_END);
  if (marker.size < MARKER_BYTES.length) return MarkerVerdict.notDicom;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await marker.arrayBuffer());
  } catch {
    // Removed, moved or locked since it was picked.
    return MarkerVerdict.unreadable;
  }
  return MARKER_BYTES.every((byte, index) => bytes[index] === byte) ? MarkerVerdict.dicom : MarkerVerdict.notDicom;
}

/** What the page needs of a batch of files, one entry per file in the order given. */
export type ScannedBatch = { verdicts: Uint8Array; sizes: Float64Array; lastModified: Float64Array };

/**
 * The verdicts with each file's size and modification time, READS_IN_FLIGHT reads at once. In
 * the worker a posted File carries its size and date already: reading them costs nothing there.
 */
export async function scanFiles(files: readonly File[]): Promise<ScannedBatch> {
  const verdicts = new Uint8Array(files.length);
  let next = 0;
  const reader = async () => {
    while (next < files.length) {
      const index = next++;
      verdicts[index] = await markerVerdict(files[index]!).catch(() => MarkerVerdict.unreadable);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, files.length) }, reader));
  return {
    verdicts,
    sizes: Float64Array.from(files, (file) => file.size),
    lastModified: Float64Array.from(files, (file) => file.lastModified),
  };
}
