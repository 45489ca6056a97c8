import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { JobQueue } from '../lib/job-queue';
import type { Logger } from '../lib/logger';
import type { FileStorage } from '../lib/storage';
import { namedImageKeys } from './repo';

const SWEEP_SECONDS = 60 * 60;

/**
 * Images are renamed into the store inside the transaction that records them, so a process that
 * dies between the rename and the commit leaves a file no row names. This hourly job on the shared
 * queue deletes such files once they are UNNAMED_AFTER_MS old (an hour). Answers how many it removed.
 */
export async function removeOrphanImageFiles(deps: { db: Db; storage: FileStorage }, now: number): Promise<number> {
  return deps.storage.removeUnnamed('dicom', (keys) => namedImageKeys(deps.db, keys), now);
}

export function startOrphanImageSweep(deps: { queue: JobQueue; db: Db; storage: FileStorage; clock: Clock; logger: Logger }): void {
  deps.queue.every('orphan-image-sweep', SWEEP_SECONDS, async () => {
    const removed = await removeOrphanImageFiles(deps, deps.clock());
    if (removed > 0) deps.logger.warn({ removed }, 'image files no row named removed');
  });
}
