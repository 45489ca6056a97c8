import type { UploadRefusalReason } from '@common/types/upload';
import type { ActiveFile, CheckedFile, FileProblem, RunSnapshot, SkipReason, Transfer } from './run-types';

/** Where each picked file of a run stands (upload-run.ts), and what the page is shown of them all. */

export type Status =
  | 'identifying'
  | 'checking' // waiting for the "known" answer
  | 'queued'
  | 'sending'
  | 'held' // a transfer stopped by a pause or a lost connection
  | 'stored'
  | 'duplicate'
  | 'refused'
  | 'failed'
  | 'skipped'
  | 'cancelled';

export const UNFINISHED = new Set<Status>(['identifying', 'checking', 'queued', 'sending', 'held']);

export type Entry = CheckedFile & {
  id: number;
  status: Status;
  sent: number;
  uid: string | null;
  skip?: SkipReason;
  refusal?: UploadRefusalReason;
  failure?: string;
  transfer?: Transfer;
};

export const NO_SKIPS = (): Record<SkipReason, number> => ({
  alreadyStored: 0,
  notDicom: 0,
  unreadable: 0,
  dicomdir: 0,
  tooLarge: 0,
  duplicate: 0,
});

/**
 * The counts and lists of a snapshot, from every entry: one walk of at most a few thousand
 * entries, once per snapshot (at most every SNAPSHOT_EVERY_MS).
 */
export function summarize(
  entries: readonly Entry[],
  skipCounts: Record<SkipReason, number>,
): Pick<RunSnapshot, 'files' | 'bytes' | 'stored' | 'skipped' | 'refused' | 'failed' | 'active'> {
  const files = { total: 0, finished: 0 };
  const bytes = { total: 0, sent: 0 };
  let stored = 0;
  let duplicates = 0;
  const refused: FileProblem[] = [];
  const failed: FileProblem[] = [];
  const active: ActiveFile[] = [];
  for (const entry of entries) {
    if (entry.status === 'skipped' || entry.status === 'cancelled') continue;
    files.total++;
    if (entry.status === 'failed') {
      files.finished++;
      failed.push({ id: entry.id, path: entry.path, reason: entry.failure ?? 'UNKNOWN' });
      continue;
    }
    bytes.total += entry.size;
    bytes.sent += entry.sent;
    if (entry.status === 'stored') stored++;
    if (entry.status === 'duplicate') duplicates++;
    if (entry.status === 'refused') refused.push({ id: entry.id, path: entry.path, reason: entry.refusal ?? 'unreadable' });
    if (entry.status === 'stored' || entry.status === 'duplicate' || entry.status === 'refused') files.finished++;
    if (entry.status === 'sending' || entry.status === 'held')
      active.push({ id: entry.id, path: entry.path, size: entry.size, sent: entry.sent });
  }
  // A file the server found it had already counts as already stored, like one the page skipped.
  const skipped = { ...skipCounts, alreadyStored: skipCounts.alreadyStored + duplicates };
  return { files, bytes, stored, skipped, refused, failed, active };
}
