import type { Db } from '../db';

/** The latest end of a wait among the buckets, or null when none is waiting. */
export async function latestBlockedUntil(db: Db, buckets: string[]): Promise<Date | null> {
  const row = await db('login_throttle').whereIn('bucket', buckets).max({ until: 'blocked_until' }).first();
  return row?.until ?? null;
}

/**
 * Counts one failure in one statement, so concurrent failures never lose a count: the row is
 * created, incremented, or started over when its window has passed. Returns the window's count.
 */
export async function countFailure(db: Db, bucket: string, now: Date, windowStartedBefore: Date): Promise<number> {
  const result = await db.raw<{ rows: { failures: number }[] }>(
    `INSERT INTO login_throttle AS t (bucket, failures, window_started_at, updated_at)
     VALUES (?, 1, ?, ?)
     ON CONFLICT (bucket) DO UPDATE SET
       failures = CASE WHEN t.window_started_at <= ? THEN 1 ELSE t.failures + 1 END,
       window_started_at = CASE WHEN t.window_started_at <= ? THEN EXCLUDED.window_started_at ELSE t.window_started_at END,
       updated_at = EXCLUDED.updated_at
     RETURNING failures`,
    [bucket, now, now, windowStartedBefore, windowStartedBefore],
  );
  return result.rows[0]!.failures;
}

/** Extends a bucket's wait; a shorter wait from a concurrent failure never shortens it. */
export async function extendBlock(db: Db, bucket: string, until: Date): Promise<void> {
  await db('login_throttle')
    .where({ bucket })
    .update({ blocked_until: db.raw('GREATEST(COALESCE(blocked_until, ?), ?)', [until, until]) });
}

export async function clearBuckets(db: Db, buckets: string[]): Promise<void> {
  await db('login_throttle').whereIn('bucket', buckets).delete();
}

/** Buckets with neither a recent failure nor a running wait. */
export async function deleteStaleBuckets(db: Db, idleSince: Date, now: Date): Promise<void> {
  await db('login_throttle')
    .where('updated_at', '<', idleSince)
    .andWhere((query) => query.whereNull('blocked_until').orWhere('blocked_until', '<', now))
    .delete();
}
