import PgBoss from 'pg-boss';
import type { Config } from '../config';
import { schemaOf, type Db } from '../db';
import type { Clock } from '../lib/clock';
import { errorForLog, type Logger } from '../lib/logger';
import type { FileStorage } from '../lib/storage';
import { buildScreeningDisc, type BuiltImage } from './build';
import { failAttempt, finishAttempt, startAttempt } from './repo';

export const ISO_QUEUE = 'iso-generate';
/** Two more tries after the first: a passing storage hiccup heals, a broken study fails. */
const RETRY_LIMIT = 2;
/** A build whose process died is retried after this long (pg-boss expires the active job). */
const EXPIRE_IN_MINUTES = 15;
const POLLING_INTERVAL_SECONDS = 0.5;

type IsoJobData = { screeningId: number };
export type BuildDisc = (screeningId: number, now: Date) => Promise<BuiltImage>;

export type IsoJobs = {
  /** Queues the build; false if the queue is unreachable. */
  enqueue(screeningId: number): Promise<boolean>;
  stop(): Promise<void>;
};

/**
 * ISO builds as pg-boss jobs on the portal's own PostgreSQL. pg-boss gets a `db` adapter on the
 * app's knex pool instead of a pool of its own: the embedded PGlite serves one connection only
 * (README, "One connection"). Its tables live in `pgboss`, or in the app's schema when the app
 * has one (each API test file), so a test's jobs go away with its schema.
 */
export function startIsoJobs(deps: { db: Db; config: Config; logger: Logger; clock: Clock; storage: FileStorage; buildDisc?: BuildDisc }): IsoJobs {
  const { db, logger, clock, storage } = deps;
  const buildDisc: BuildDisc = deps.buildDisc ?? ((screeningId, now) => buildScreeningDisc(db, storage, deps.config, screeningId, now));
  const boss = new PgBoss({
    db: { executeSql: (text, values) => executeOnKnex(db, text, values) },
    schema: schemaOf(db) ?? 'pgboss',
    schedule: false,
    retryLimit: RETRY_LIMIT,
    expireInMinutes: EXPIRE_IN_MINUTES,
  });
  boss.on('error', (error) => logger.error({ err: errorForLog(error) }, 'iso job queue error'));

  const started = (async () => {
    await boss.start();
    await boss.createQueue(ISO_QUEUE, { name: ISO_QUEUE, policy: 'stately', retryLimit: RETRY_LIMIT, expireInMinutes: EXPIRE_IN_MINUTES });
    await boss.work<IsoJobData>(
      ISO_QUEUE,
      { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: 1, includeMetadata: true },
      async ([job]) => {
        if (job) await runBuild(job.data.screeningId, job.retryCount >= job.retryLimit);
      },
    );
  })();
  // A queue that cannot start answers NO_CONNECTION on requests; the failure is logged once here.
  started.catch((error: unknown) => logger.error({ err: errorForLog(error) }, 'iso job queue did not start'));

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
        await started;
        await boss.send(ISO_QUEUE, { screeningId } satisfies IsoJobData, { singletonKey: String(screeningId) });
        return true;
      } catch (error) {
        logger.error({ screeningId, err: errorForLog(error) }, 'iso job could not be queued');
        return false;
      }
    },
    async stop() {
      await started.catch(() => undefined);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

/**
 * pg-boss speaks `$1` parameters, which knex.raw would read as its own `?` bindings; the query
 * goes to a pooled connection as is. Without values it is a simple query, so pg-boss's
 * multi-statement scripts (its migrations) run too.
 */
async function executeOnKnex(db: Db, text: string, values: unknown[] | undefined): Promise<{ rows: unknown[] }> {
  const connection = await db.client.acquireConnection();
  try {
    const result = await connection.query(text, values && values.length > 0 ? values : undefined);
    // A multi-statement script answers one result per statement.
    return Array.isArray(result) ? (result[result.length - 1] ?? { rows: [] }) : result;
  } finally {
    await db.client.releaseConnection(connection);
  }
}
