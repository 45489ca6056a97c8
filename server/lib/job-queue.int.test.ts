import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { loadConfig } from '../config';
import type { Db } from '../db';
import { startJobQueue, type JobQueue } from './job-queue';
import { createLogger } from './logger';

const TEST_ENV = { SESSION_SECRET: 'x'.repeat(32), ACCESS_CODE_SECRET: 'y'.repeat(32), NODE_ENV: 'test', LOG_LEVEL: 'silent' };
let database: TestDatabase;

/**
 * `db` with members of its knex client replaced where `replace` answers one; the others are the
 * real client's. pg-boss sees the database only through connections this client lends.
 */
function withClient(db: Db, replace: (client: Db['client'], property: string | symbol) => unknown): Db {
  const client = new Proxy(db.client, {
    get(target, property) {
      const replaced = replace(target, property);
      if (replaced !== undefined) return replaced;
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Proxy(db, { get: (target, property) => (property === 'client' ? client : Reflect.get(target, property)) });
}

/** `db`, but every statement sent on a connection it lends is noted in `sent` (how pg-boss runs its SQL). */
function countingQueries(db: Db, sent: string[]): Db {
  type Connection = { query(text: string, values?: unknown[]): Promise<unknown> };
  const lent = new WeakMap<object, Connection>();
  return withClient(db, (target, property) => {
    if (property === 'acquireConnection') {
      return async () => {
        const connection = (await target.acquireConnection()) as Connection;
        const noting = { query: (text: string, values?: unknown[]) => (sent.push(text), connection.query(text, values)) };
        lent.set(noting, connection);
        return noting;
      };
    }
    if (property === 'releaseConnection') return (connection: object) => target.releaseConnection(lent.get(connection) ?? connection);
    return undefined;
  });
}

/** `db`, but asking it for a connection is refused, as pg refuses one to a server that is not there, while `away()`. */
function refusingWhile(db: Db, away: () => boolean): Db {
  return withClient(db, (_target, property) =>
    property === 'acquireConnection' && away()
      ? () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
      : undefined,
  );
}
let queue: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  queue = startJobQueue({ db: database.db, logger: createLogger(loadConfig(TEST_ENV)) });
});
afterAll(async () => {
  await queue?.stop();
  await database?.drop();
});

describe('job queue', () => {
  it('runs a periodic task at start and again on each tick, a failing run not stopping the next', async () => {
    let runs = 0;
    queue.every('test-periodic', 1, async () => {
      runs += 1;
      if (runs === 1) throw new Error('first run fails');
    });
    const deadline = Date.now() + 15_000;
    while (runs < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBeGreaterThanOrEqual(3);
  });

  it('runs an hourly task at start at once, then leaves the database alone until its next run', async () => {
    await queue.boss(); // two queues setting up the same schema at once would race
    const sent: string[] = [];
    const idle = startJobQueue({ db: countingQueries(database.db, sent), logger: createLogger(loadConfig(TEST_ENV)) });
    try {
      let runs = 0;
      const started = Date.now();
      idle.every('test-hourly', 3600, async () => {
        runs += 1;
      });
      while (runs === 0 && Date.now() - started < 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(runs).toBe(1);
      // Asking for work twice a second per periodic job was the idle load of every process.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = sent.length;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(sent.slice(before).filter((sql) => /SKIP LOCKED/i.test(sql))).toEqual([]);
    } finally {
      await idle.stop();
    }
  });

  it('outlives the database going away as a job ends: the outcome is not recorded, and nothing is left unhandled', async () => {
    await queue.boss();
    let away = false;
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const own = startJobQueue({ db: refusingWhile(database.db, () => away), logger });
    try {
      own.every('test-outcome-lost', 3600, async () => {
        // pg-boss records the outcome without awaiting it: its failure was an unhandled rejection,
        // which ends a Node process (and fails this test file).
        away = true;
      });
      const deadline = Date.now() + 15_000;
      while (!lines.some((line) => line.includes('outcome was not recorded')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(lines.some((line) => line.includes('outcome was not recorded'))).toBe(true);
    } finally {
      away = false;
      await own.stop();
    }
  });

  it('sets up many queues asked for at once, each once the one before is done, a failure holding up none', async () => {
    const names = Array.from({ length: 8 }, (_, index) => `test-queue-${index}`);
    const failing = queue.prepare(async () => {
      throw new Error('this set-up fails');
    });
    const created = names.map((name) => queue.prepare(async (boss) => (await boss.createQueue(name), name)));
    await expect(failing).rejects.toThrow('this set-up fails');
    expect(await Promise.all(created)).toEqual(names);
    const boss = await queue.boss();
    for (const name of names) expect((await boss.getQueue(name))?.name).toBe(name);
  });
});

describe('stop', () => {
  it("waits for pg-boss's queries still running, such as a job's completion it does not await itself", async () => {
    const own = startJobQueue({
      db: database.db,
      logger: createLogger(loadConfig({ SESSION_SECRET: 'x'.repeat(32), ACCESS_CODE_SECRET: 'y'.repeat(32), LOG_LEVEL: 'silent' })),
    });
    const sql = (await own.boss()).getDb();
    let finished = false;
    void sql.executeSql('SELECT pg_sleep(0.5)', []).then(() => (finished = true));
    await own.stop();
    expect(finished).toBe(true);

    // Asked for after the stop, a query is not sent: it neither answers nor fails.
    let settled = false;
    sql.executeSql('SELECT * FROM no_such_table_of_pg_boss', []).then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
  });

  it('fails a job still running after the grace back to its queue, so another process retries it at once', async () => {
    const own = startJobQueue({
      db: database.db,
      logger: createLogger(loadConfig({ SESSION_SECRET: 'x'.repeat(32), ACCESS_CODE_SECRET: 'y'.repeat(32), LOG_LEVEL: 'silent' })),
      runningJobGraceMs: 1000,
    });
    const boss = await own.boss();
    await boss.createQueue('test-long-job', { name: 'test-long-job', retryLimit: 2, retryDelay: 0 });
    let started = false;
    await boss.work('test-long-job', { pollingIntervalSeconds: 0.5 }, async () => {
      started = true;
      await new Promise(() => undefined); // a build that would outlive the process
    });
    const jobId = await boss.send('test-long-job', {});
    const deadline = Date.now() + 10_000;
    while (!started && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(true);

    const stoppedAt = Date.now();
    await own.stop();
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    // Back in the queue for its retry, not left "active" until it expires.
    const job = await (await queue.boss()).getJobById('test-long-job', jobId!);
    expect(job?.state).toBe('retry');
  });
});
