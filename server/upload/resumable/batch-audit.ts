import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { writeAudit } from '../../lib/audit';
import type { JobQueue } from '../../lib/job-queue';
import type { Logger } from '../../lib/logger';
import { quietUnauditedBatches, takeUnauditedCompletions, type UnauditedBatch } from './repo';

/**
 * A folder of 5,000 files is 5,000 resumable uploads, but one thing the patient did: her audit
 * log gets one DICOM_UPLOAD entry per pick ("stored 4988, duplicates 0, refused 12"), as the
 * multipart upload wrote one per request, not one per file. The entry is written when the client
 * says the pick is over, or by the job once the batch has been quiet for QUIET_MS (a closed tab).
 * The audit table only takes inserts, so the entry waits until the batch is over.
 */
const QUIET_MS = 60_000;
const REPORT_EVERY_SECONDS = 60;
const BATCHES_PER_RUN = 200;

/** Writes the audit entry of what the batch completed since its last entry; none if nothing did. Answers whether one was written. */
export async function reportBatch(db: Db, batch: UnauditedBatch, now: Date): Promise<boolean> {
  return db.transaction(async (trx) => {
    const completions = await takeUnauditedCompletions(trx, batch, now);
    if (completions.length === 0) return false;
    const count = (outcome: string) => completions.filter((completion) => completion.outcome === outcome).length;
    await writeAudit(trx, {
      type: 'DICOM_UPLOAD',
      ip: completions.at(-1)?.completedIp ?? undefined,
      userId: batch.userId,
      description: `stored ${count('stored')}, duplicates ${count('duplicate')}, refused ${count('refused')}`,
    });
    return true;
  });
}

/** The batches nobody reported: written once they have been quiet for QUIET_MS. */
export async function reportQuietBatches(db: Db, now: Date): Promise<number> {
  let written = 0;
  for (const batch of await quietUnauditedBatches(db, new Date(now.getTime() - QUIET_MS), BATCHES_PER_RUN)) {
    if (await reportBatch(db, batch, now)) written += 1;
  }
  return written;
}

export function startBatchAudit(deps: { queue: JobQueue; db: Db; clock: Clock; logger: Logger }): void {
  deps.queue.every('resumable-upload-audit', REPORT_EVERY_SECONDS, async () => {
    const written = await reportQuietBatches(deps.db, new Date(deps.clock()));
    if (written > 0) deps.logger.info({ written }, 'audit entries of finished upload batches written');
  });
}
