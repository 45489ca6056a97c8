import type { UploadLimits } from '@common/types/upload';
import type { FileFacts } from './marker-scanner';
import type { PickedFile } from './picked-files';

/** A picked file the marker scan kept, with the size and date the worker read. */
export type ScannedFile = PickedFile & FileFacts;
/** A file on the list to send: its path doubles as the name the server reports refusals under. */
export type SelectedFile = ScannedFile & { id: string };

/** What was left out of the list since it was last emptied, each with its own message. */
export type SkippedCounts = { notDicom: number; unreadable: number; tooLarge: number };
export const NO_SKIPS: SkippedCounts = { notDicom: 0, unreadable: 0, tooLarge: 0 };

/** The same file picked twice (again in a folder, or dropped after being chosen) counts once. */
function idOf({ path, size, lastModified }: ScannedFile): string {
  return `${path}\u0000${size}\u0000${lastModified}`;
}

/**
 * The scanned DICOM files that go on the list: new to it and within the server's per-file limit
 * (the server would refuse the whole request for one such file).
 */
export function admitPicked(
  picked: readonly ScannedFile[],
  current: readonly SelectedFile[],
  limits: Pick<UploadLimits, 'maxFileBytes'>,
): { candidates: SelectedFile[]; tooLarge: number } {
  const known = new Set(current.map((file) => file.id));
  const candidates: SelectedFile[] = [];
  let tooLarge = 0;
  for (const item of picked) {
    const id = idOf(item);
    if (known.has(id)) continue;
    known.add(id);
    if (item.size > limits.maxFileBytes) tooLarge++;
    else candidates.push({ ...item, id });
  }
  return { candidates, tooLarge };
}

export function addSkips(a: SkippedCounts, b: Partial<SkippedCounts>): SkippedCounts {
  return {
    notDicom: a.notDicom + (b.notDicom ?? 0),
    unreadable: a.unreadable + (b.unreadable ?? 0),
    tooLarge: a.tooLarge + (b.tooLarge ?? 0),
  };
}

export function totalBytes(files: readonly { size: number }[]): number {
  return files.reduce((sum, { size }) => sum + size, 0);
}
