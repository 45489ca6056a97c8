import { migrationSource } from '../../db/migrations';
import type { Db } from '../db';
import type { JobQueue } from '../lib/job-queue';
import type { FileStorage } from '../lib/storage';

/** How long one check may take before it counts as failing: a probe must answer well inside its own timeout. */
const CHECK_TIMEOUT_MS = 2_000;

export type CheckName = 'database' | 'migrations' | 'storage' | 'jobQueue';
export type CheckResult = 'ok' | 'failing';

export type ReadinessDeps = { db: Db; storage: Pick<FileStorage, 'probe'>; queue: Pick<JobQueue, 'isRunning'> };

/** Each check resolves when the part works and rejects (with the reason, for the log) when it does not. */
export function readinessChecks(deps: ReadinessDeps): Record<CheckName, () => Promise<void>> {
  return {
    database: async () => {
      await deps.db.raw('select 1');
    },
    // The same list main.ts applies at start (`migrate` in server/db.ts): every one of them applied.
    migrations: async () => {
      const expected = await migrationSource.getMigrations([]);
      const applied = new Set<string>(await deps.db('knex_migrations').pluck('name'));
      const missing = expected.filter((name) => !applied.has(name));
      if (missing.length > 0) throw new Error(`migrations not applied: ${missing.join(', ')}`);
    },
    // Writes and deletes a small file in the configured backend (S3: a put and a delete).
    storage: () => deps.storage.probe(),
    jobQueue: async () => {
      if (!deps.queue.isRunning()) throw new Error('job queue not running');
    },
  };
}

/** Runs the checks side by side, each under `timeoutMs`; a slow part counts as failing. */
export async function runChecks(
  checks: Record<CheckName, () => Promise<void>>,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<{ results: Record<CheckName, CheckResult>; failures: Partial<Record<CheckName, unknown>> }> {
  const names = Object.keys(checks) as CheckName[];
  const settled = await Promise.allSettled(names.map((name) => withTimeout(checks[name](), timeoutMs, name)));
  const results = {} as Record<CheckName, CheckResult>;
  const failures: Partial<Record<CheckName, unknown>> = {};
  settled.forEach((outcome, index) => {
    const name = names[index]!;
    results[name] = outcome.status === 'fulfilled' ? 'ok' : 'failing';
    if (outcome.status === 'rejected') failures[name] = outcome.reason;
  });
  return { results, failures };
}

function withTimeout<T>(work: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} check took longer than ${ms} ms`)), ms);
  });
  // A check that loses the race may still settle later; its rejection is not left unhandled.
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
