import { DICOM_MARKER, DICOM_MARKER_OFFSET } from '@common/types/upload';

/** What the scan found for one file, one byte per file so a whole batch transfers as one buffer. */
export const MarkerVerdict = { notDicom: 0, dicom: 1, unreadable: 2 } as const;
export type MarkerVerdict = (typeof MarkerVerdict)[keyof typeof MarkerVerdict];

const MARKER_BYTES = Uint8Array.from(DICOM_MARKER, (letter) => letter.charCodeAt(0));
const MARKER_END = DICOM_MARKER_OFFSET + MARKER_BYTES.length;
/** Slices read at once: enough to keep the disk busy, few enough not to flood it with requests. */
const PARALLEL_READS = 8;

async function verdictOf(file: Blob): Promise<MarkerVerdict> {
  // A file too short to hold the marker is not a Part 10 file; nothing to read.
  if (file.size < MARKER_END) return MarkerVerdict.notDicom;
  let bytes: Uint8Array;
  try {
    // Only the four marker bytes: a 50 MB image costs as little as a 2 KB one.
    bytes = new Uint8Array(await file.slice(DICOM_MARKER_OFFSET, MARKER_END).arrayBuffer());
  } catch {
    // Removed, moved or locked since it was picked.
    return MarkerVerdict.unreadable;
  }
  return MARKER_BYTES.every((byte, index) => bytes[index] === byte) ? MarkerVerdict.dicom : MarkerVerdict.notDicom;
}

/** What the page needs of a batch of files, one entry per file in the order given. */
export type ScannedBatch = { verdicts: Uint8Array; sizes: Float64Array; lastModified: Float64Array };

/** One verdict per file, in the order given (DECISIONS.md 15: kept only with `DICM` at 128-131). */
export async function scanMarkers(files: readonly Blob[]): Promise<Uint8Array> {
  const verdicts = new Uint8Array(files.length);
  let next = 0;
  const reader = async () => {
    while (next < files.length) {
      const index = next++;
      verdicts[index] = await verdictOf(files[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, files.length) }, reader));
  return verdicts;
}

/** The verdicts with each file's size and modification time, read here rather than on the page. */
export async function scanFiles(files: readonly File[]): Promise<ScannedBatch> {
  const verdicts = await scanMarkers(files);
  return {
    verdicts,
    sizes: Float64Array.from(files, (file) => file.size),
    lastModified: Float64Array.from(files, (file) => file.lastModified),
  };
}
