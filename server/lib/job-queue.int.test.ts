import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { loadConfig } from '../config';
import { startJobQueue, type JobQueue } from './job-queue';
import { createLogger } from './logger';

let database: TestDatabase;
let queue: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ SESSION_SECRET: 'x'.repeat(32), ACCESS_CODE_SECRET: 'y'.repeat(32), NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  queue = startJobQueue({ db: database.db, logger: createLogger(config) });
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
});
