import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { JobQueue } from '../lib/job-queue';
import { errorForLog, type Logger } from '../lib/logger';
import type { FileStorage } from '../lib/storage';
import { buildScreeningDisc, type BuiltImage } from './build';
import { beat, failAttempt, finishAttempt, startAttempt } from './repo';
import { removeExpiredIsoImages, removeOrphanIsoFiles } from './retention';

const ISO_QUEUE = 'iso-generate';
/** Two more tries after the first: a passing storage hiccup heals, a broken study fails. */
const RETRY_LIMIT = 2;
/** A build whose process died is retried after this long (pg-boss expires the active job). */
const EXPIRE_IN_MINUTES = 15;
/** How often a running build says it is alive (iso_images.heartbeat_at). */
const HEARTBEAT_MS = 10_000;
/**
 * A build silent this long belongs to a process that died (a build's own work never blocks the
 * event loop for seconds): the patient may ask again at once, and the next attempt takes it over.
 */
const DEAD_AFTER_MS = 6 * HEARTBEAT_MS;

/** Builds whose last heartbeat is before this are dead at `now`. */
export const deadBuildsBefore = (now: number): Date => new Date(now - DEAD_AFTER_MS);
const POLLING_INTERVAL_SECONDS = 0.5;
/** How often built images past ISO_RETENTION_DAYS are looked for. */
const RETENTION_SWEEP_SECONDS = 60 * 60;

type IsoJobData = { screeningId: number };
export type BuildDisc = (screeningId: number, now: Date) => Promise<BuiltImage>;

export type IsoJobs = {
  /** Queues the build; false if the queue is unreachable. */
  enqueue(screeningId: number): Promise<boolean>;
  /** Takes a dead build's job off the queue (best effort), so it neither blocks nor comes back as a retry. */
  abandon(jobId: string): Promise<void>;
};

/**
 * ISO builds as jobs on the portal's queue (server/lib/job-queue.ts), at most one per screening
 * (the `stately` policy with the screening as singleton key), and the hourly clean-up of images
 * past their retention.
 */
export function startIsoJobs(deps: {
  queue: JobQueue;
  db: Db;
  config: Config;
  logger: Logger;
  clock: Clock;
  storage: FileStorage;
  buildDisc?: BuildDisc;
}): IsoJobs {
  const { queue, db, logger, clock, storage } = deps;
  const buildDisc: BuildDisc = deps.buildDisc ?? ((screeningId, now) => buildScreeningDisc(db, storage, deps.config, screeningId, now));

  const started = queue.prepare(async (boss) => {
    await boss.createQueue(ISO_QUEUE, { name: ISO_QUEUE, policy: 'stately', retryLimit: RETRY_LIMIT, expireInMinutes: EXPIRE_IN_MINUTES });
    const workerId = await boss.work<IsoJobData>(
      ISO_QUEUE,
      { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: 1, includeMetadata: true },
      async ([job]) => {
        if (job) await runBuild(job.data.screeningId, job.id, job.retryCount >= job.retryLimit);
      },
    );
    return { boss, workerId };
  });
  // A queue that cannot start answers NO_CONNECTION on requests; the failure is logged once here.
  started.catch((error: unknown) => logger.error({ err: errorForLog(error) }, 'iso job queue did not start'));

  queue.every('iso-retention', RETENTION_SWEEP_SECONDS, async () => {
    const removed = await removeExpiredIsoImages(db, storage, new Date(clock()), deps.config.iso.retentionDays);
    if (removed > 0) logger.info({ removed }, 'expired iso images removed');
    const orphans = await removeOrphanIsoFiles(db, storage, new Date(clock()));
    if (orphans > 0) logger.warn({ removed: orphans }, 'iso files no row named removed');
  });

  async function runBuild(screeningId: number, jobId: string, lastAttempt: boolean): Promise<void> {
    const attempt = await startAttempt(db, screeningId, jobId, new Date(clock()), deadBuildsBefore(clock()));
    if (!attempt) return; // nothing waits for this image any more, or a live build has it
    const heartbeat = setInterval(() => {
      beat(db, screeningId, jobId, new Date(clock())).catch((error: unknown) =>
        logger.warn({ screeningId, err: errorForLog(error) }, 'iso build heartbeat not written'),
      );
    }, HEARTBEAT_MS).unref();
    let built: BuiltImage | undefined;
    try {
      built = await buildDisc(screeningId, new Date(clock()));
      if (!(await finishAttempt(db, screeningId, jobId, built, new Date(clock())))) {
        await storage.remove(built.storageKey);
        return;
      }
    } catch (error) {
      if (built) await storage.remove(built.storageKey);
      await failAttempt(db, screeningId, jobId, lastAttempt, error instanceof Error ? error.message : String(error), new Date(clock()));
      logger.warn({ screeningId, lastAttempt, err: errorForLog(error) }, 'iso image build failed');
      throw error; // pg-boss retries or marks the job failed
    } finally {
      clearInterval(heartbeat);
    }
    if (attempt.previousKey) await storage.remove(attempt.previousKey);
    logger.info({ screeningId, sizeBytes: built.sizeBytes }, 'iso image built');
  }

  return {
    async enqueue(screeningId) {
      try {
        const { boss, workerId } = await started;
        await boss.send(ISO_QUEUE, { screeningId } satisfies IsoJobData, { singletonKey: String(screeningId) });
        // A build takes well under a second now (virtual-image.ts): this process's worker looks
        // at once rather than at its next poll; another process's worker may still take it first.
        boss.notifyWorker(workerId);
        return true;
      } catch (error) {
        logger.error({ screeningId, err: errorForLog(error) }, 'iso job could not be queued');
        return false;
      }
    },
    async abandon(jobId) {
      try {
        await (await started).boss.cancel(ISO_QUEUE, jobId);
      } catch (error) {
        // It expires on its own; its retry then finds the row taken by the new build and stops.
        logger.warn({ err: errorForLog(error) }, 'dead iso job not cancelled');
      }
    },
  };
}
