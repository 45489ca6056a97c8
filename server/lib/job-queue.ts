import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import { schemaOf, type Db } from '../db';
import { errorForLog, type Logger } from './logger';

export type JobQueue = {
  /** The started pg-boss; awaiting it rejects when the queue could not start. */
  boss(): Promise<PgBoss>;
  /**
   * Runs `setUp` (creating queues, registering workers) once the queue has started and every
   * set-up asked for before has finished; stop() waits for it.
   */
  prepare<T>(setUp: (boss: PgBoss) => Promise<T>): Promise<T>;
  /**
   * Runs `task` about every `intervalSeconds` as a pg-boss job, on one process at a time: the
   * queue's `stately` policy keeps at most one waiting and one running, however many portal
   * processes share the database. A failing run is logged and the next tick tries again.
   */
  every(name: string, intervalSeconds: number, task: () => Promise<void>): void;
  /** Started and not stopped (the readiness probe asks); false while starting, after a failed start and once stop() began. */
  isRunning(): boolean;
  stop(): Promise<void>;
};

/** pg-boss's shortest polling interval. */
const MIN_POLLING_SECONDS = 0.5;
/** The longest a periodic job's worker waits between looks for a run another process queued. */
const PERIODIC_POLL_SECONDS = 60;
/**
 * On stop, how long a running job may go on before it is failed back to its queue, where its retry
 * runs on another process at once instead of waiting for its expiry (pg-boss: `failWip`).
 */
const RUNNING_JOB_GRACE_MS = 10_000;
/** On stop, how long pg-boss's last queries may take; a database gone away must not hold the exit. */
const LAST_QUERIES_MS = 5_000;
/** How long a periodic run may take before pg-boss takes its process for dead and lets another start. */
const PERIODIC_RUN_SECONDS = 30 * 60;

/**
 * pg-boss on the portal's own PostgreSQL, shared by every background job (ISO builds, outbox
 * retries, clean-ups). pg-boss gets a `db` adapter on the app's knex pool instead of a pool of its
 * own: the embedded PGlite serves one connection only (README, "One connection"). Its tables live
 * in `pgboss`, or in the app's schema when the app has one (each API test file), so a test's jobs
 * go away with its schema. Cron scheduling stays off: `every` needs no clock monitor.
 */
export function startJobQueue({
  db,
  logger,
  runningJobGraceMs = RUNNING_JOB_GRACE_MS,
}: {
  db: Db;
  logger: Logger;
  runningJobGraceMs?: number;
}): JobQueue {
  // pg-boss 10 completes a job without awaiting it (manager.js: `this.complete(...)` in its
  // worker), so its stop() can return while that query still runs, or even before it starts,
  // and a failure of it (the database closed, a test's schema dropped) is a rejection nobody
  // handles. Every query of pg-boss is tracked and stop() waits for the last of them; one asked
  // for after that is never sent (and never settles): the queue is gone, and so may the database be.
  const queries = new Set<Promise<unknown>>();
  let stopped = false;
  const schema = schemaOf(db) ?? 'pgboss';
  const unawaited = unawaitedCommandsOf(schema);
  const executeSql = (text: string, values: unknown[] | undefined) => {
    if (stopped) return new Promise<{ rows: unknown[] }>(() => undefined);
    const query = executeOnKnex(db, text, values);
    const settled = query.then(
      () => undefined,
      () => undefined,
    );
    queries.add(settled);
    void settled.then(() => queries.delete(settled));
    if (!unawaited.has(text)) return query;
    // Nobody would handle its failure (the database away for a moment): Node ends a process on an
    // unhandled rejection. The job stays active until it expires, and pg-boss then runs it again.
    return query.catch((error: unknown) => {
      logger.warn({ err: errorForLog(error) }, 'a job ended but its outcome was not recorded; it runs again once it expires');
      return { rows: [{ count: '0' }] };
    });
  };
  const boss = new PgBoss({
    db: { executeSql },
    schema,
    schedule: false,
  });
  boss.on('error', (error) => logger.error({ err: errorForLog(error) }, 'job queue error'));
  let running = false;
  let stopping = false;
  boss.on('stopped', () => void (running = false));
  const started = boss.start().then(() => {
    running = !stopping;
    return boss;
  });
  // Callers see the failure as an unreachable queue; it is logged once here.
  started.catch((error: unknown) => logger.error({ err: errorForLog(error) }, 'job queue did not start'));
  const timers: NodeJS.Timeout[] = [];
  // Set-ups and sends still talking to the database; stop() waits for them, so none of them runs
  // after the queue is stopped (and, in the tests, while the schema is being dropped).
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return work;
  };
  // One set-up at a time: pg-boss's createQueue adds a table partition, and two at once can
  // deadlock on PostgreSQL, which left that queue unusable until a restart (ISO requests then
  // answered "no connection"). A failed set-up does not hold up the next.
  let setUps: Promise<unknown> = started;
  const prepare = <T>(setUp: (boss: PgBoss) => Promise<T>): Promise<T> => {
    const done = setUps.then(() => started).then(setUp);
    setUps = done.catch(() => undefined);
    return track(done);
  };

  return {
    boss: () => started,
    prepare,
    every(name, intervalSeconds, task) {
      const ready = prepare(async (queue) => {
        await queue.createQueue(name, {
          name,
          policy: 'stately',
          retryLimit: 0,
          expireInSeconds: Math.max(PERIODIC_RUN_SECONDS, intervalSeconds),
        });
        const pollingIntervalSeconds = Math.min(Math.max(intervalSeconds, MIN_POLLING_SECONDS), PERIODIC_POLL_SECONDS);
        const workerId = await queue.work(name, { pollingIntervalSeconds, batchSize: 1 }, async () => {
          await task().catch((error: unknown) => logger.error({ job: name, err: errorForLog(error) }, 'periodic job failed'));
        });
        return { queue, workerId };
      });
      // Every process queues each run (the queue keeps one) and its own worker looks at once; the
      // slow poll only picks up a run another process queued, so idle processes do not ask
      // PostgreSQL for work twice a second per periodic job.
      const tick = () =>
        void track(
          ready.then(async ({ queue, workerId }) => {
            await queue.send(name, {});
            queue.notifyWorker(workerId);
          }),
        ).catch((error: unknown) => logger.warn({ job: name, err: errorForLog(error) }, 'periodic job not queued'));
      tick();
      timers.push(setInterval(tick, intervalSeconds * 1000).unref());
    },
    isRunning: () => running,
    async stop() {
      stopping = true;
      running = false;
      for (const timer of timers) clearInterval(timer);
      await started.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
      await boss.stop({ graceful: true, wait: true, timeout: runningJobGraceMs });
      const deadline = Date.now() + LAST_QUERIES_MS;
      while (queries.size > 0 && Date.now() < deadline) {
        await Promise.race([Promise.allSettled([...queries]), delay(deadline - Date.now())]);
      }
      if (queries.size > 0) logger.warn({ queries: queries.size }, 'job queue stopped with queries still unanswered');
      stopped = true;
    },
  };
}

/**
 * The statements by which pg-boss 10's worker records a job's outcome (`complete` and `fail` in
 * manager.js), the ones it sends without awaiting them. Read from its own plans, so they match
 * exactly; pinned by the lock file, and a release that moves them fails the job queue's tests.
 */
function unawaitedCommandsOf(schema: string): Set<string> {
  const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
    completeJobs(schema: string): string;
    failJobsById(schema: string): string;
  };
  return new Set([plans.completeJobs(schema), plans.failJobsById(schema)]);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

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
