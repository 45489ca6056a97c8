import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { JobQueue } from '../lib/job-queue';
import { errorForLog, type Logger } from '../lib/logger';
import type { FileStorage } from '../lib/storage';
import { buildScreeningDisc, type BuiltImage } from './build';
import { failAttempt, finishAttempt, startAttempt } from './repo';
import { removeExpiredIsoImages } from './retention';

const ISO_QUEUE = 'iso-generate';
/** Two more tries after the first: a passing storage hiccup heals, a broken study fails. */
const RETRY_LIMIT = 2;
/** A build whose process died is retried after this long (pg-boss expires the active job). */
const EXPIRE_IN_MINUTES = 15;
const POLLING_INTERVAL_SECONDS = 0.5;
/** How often built images past ISO_RETENTION_DAYS are looked for. */
const RETENTION_SWEEP_SECONDS = 60 * 60;

type IsoJobData = { screeningId: number };
export type BuildDisc = (screeningId: number, now: Date) => Promise<BuiltImage>;

export type IsoJobs = {
  /** Queues the build; false if the queue is unreachable. */
  enqueue(screeningId: number): Promise<boolean>;
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
    await boss.work<IsoJobData>(
      ISO_QUEUE,
      { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: 1, includeMetadata: true },
      async ([job]) => {
        if (job) await runBuild(job.data.screeningId, job.retryCount >= job.retryLimit);
      },
    );
    return boss;
  });
  // A queue that cannot start answers NO_CONNECTION on requests; the failure is logged once here.
  started.catch((error: unknown) => logger.error({ err: errorForLog(error) }, 'iso job queue did not start'));

  queue.every('iso-retention', RETENTION_SWEEP_SECONDS, async () => {
    const removed = await removeExpiredIsoImages(db, storage, new Date(clock()), deps.config.iso.retentionDays);
    if (removed > 0) logger.info({ removed }, 'expired iso images removed');
  });

  async function runBuild(screeningId: number, lastAttempt: boolean): Promise<void> {
    const attempt = await startAttempt(db, screeningId, new Date(clock()));
    if (!attempt) return; // nothing waits for this image any more
    let built: BuiltImage | undefined;
    try {
      built = await buildDisc(screeningId, new Date(clock()));
      if (!(await finishAttempt(db, screeningId, built.storageKey, built.sizeBytes, new Date(clock())))) {
        await storage.remove(built.storageKey);
        return;
      }
    } catch (error) {
      if (built) await storage.remove(built.storageKey);
      await failAttempt(db, screeningId, lastAttempt, error instanceof Error ? error.message : String(error), new Date(clock()));
      logger.warn({ screeningId, lastAttempt, err: errorForLog(error) }, 'iso image build failed');
      throw error; // pg-boss retries or marks the job failed
    }
    if (attempt.previousKey) await storage.remove(attempt.previousKey);
    logger.info({ screeningId, sizeBytes: built.sizeBytes }, 'iso image built');
  }

  return {
    async enqueue(screeningId) {
      try {
        const boss = await started;
        await boss.send(ISO_QUEUE, { screeningId } satisfies IsoJobData, { singletonKey: String(screeningId) });
        return true;
      } catch (error) {
        logger.error({ screeningId, err: errorForLog(error) }, 'iso job could not be queued');
        return false;
      }
    },
  };
}
