import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { JobQueue } from '../../lib/job-queue';
import type { Logger } from '../../lib/logger';
import type { FileStorage } from '../../lib/storage';
import { reportQuietBatches } from './batch-audit';
import { PostgresLocker } from './locker';
import { partialBytesOf } from './partial-bytes';
import { deleteUpload, existingUploadIds, expiredUploads, removeExpiredLeases } from './repo';

const SWEEP_SECONDS = 10 * 60;
const UPLOADS_PER_SWEEP = 500;

export type SweepDeps = { db: Db; storage: FileStorage; logger: Logger };
export type SweepResult = { expired: number; debris: number };

/**
 * Removes what resumable uploads leave behind (docs/api.md "Resumable DICOM upload"): unfinished
 * uploads past `UPLOAD_RESUMABLE_EXPIRY_HOURS` (bytes and row), completed ones whose outcome was
 * kept long enough (row), bytes of uploads that have no row (a process died between
 * the two, or someone put them there) and leases whose holder died. An upload a request holds
 * right now is left for the next sweep.
 */
export async function sweepResumableUploads(deps: SweepDeps, now: Date): Promise<SweepResult> {
  const { db, logger } = deps;
  const partial = partialBytesOf(deps.storage);
  // Listed before the rows are read: a row is created before its bytes, so bytes listed here
  // whose row is missing below are debris, never an upload being created.
  const names = await partial.ids();
  const locker = new PostgresLocker(db, logger);
  // A completed upload is what its batch's audit entry is made of: quiet batches are reported first.
  await reportQuietBatches(db, now);
  const removed = new Set<string>();
  for (const id of await expiredUploads(db, now, UPLOADS_PER_SWEEP)) {
    const lease = locker.leaseOf(id);
    if (!(await lease.tryLock())) continue;
    try {
      await partial.remove(id);
      await deleteUpload(db, id);
      removed.add(id);
    } finally {
      await lease.unlock();
    }
  }
  const alive = await existingUploadIds(db, names);
  const debris = names.filter((name) => !alive.has(name) && !removed.has(name));
  for (const name of debris) await partial.remove(name);
  await removeExpiredLeases(db);
  return { expired: removed.size, debris: debris.length };
}

/** The sweep as a periodic job on the shared queue: one process at a time runs it. */
export function startResumableUploadSweep(deps: SweepDeps & { queue: JobQueue; clock: Clock }): void {
  deps.queue.every('resumable-upload-sweep', SWEEP_SECONDS, async () => {
    const result = await sweepResumableUploads(deps, new Date(deps.clock()));
    if (result.expired + result.debris > 0) deps.logger.info(result, 'resumable uploads past their time removed');
  });
}
