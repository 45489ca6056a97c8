import type { Db } from '../db';

export type BucketRow = { bucket: string; failures: number; windowStartedAt: Date; blockedUntil: Date | null };

/** The latest end of a wait among the buckets, or null when none is waiting. */
export async function latestBlockedUntil(db: Db, buckets: string[]): Promise<Date | null> {
  const row = await db('login_throttle').whereIn('bucket', buckets).max({ until: 'blocked_until' }).first();
  return row?.until ?? null;
}

/** The buckets' rows as they stand, without locks; buckets never used have none. */
export async function readBuckets(db: Db, buckets: string[]): Promise<BucketRow[]> {
  const rows: { bucket: string; failures: number; window_started_at: Date; blocked_until: Date | null }[] = await db('login_throttle')
    .whereIn('bucket', buckets)
    .select('bucket', 'failures', 'window_started_at', 'blocked_until');
  return rows.map(toBucketRow);
}

/**
 * Creates the buckets that do not exist yet and locks all of them for the caller's transaction,
 * in a fixed order so two attempts sharing buckets never deadlock. One upsert does both: an insert
 * that skipped existing rows followed by a locking read would find no row when a success cleared
 * the bucket in between (several tabs signing one account in at once).
 */
export async function lockBuckets(trx: Db, buckets: string[], now: Date): Promise<BucketRow[]> {
  const sorted = [...buckets].sort();
  const rows: { bucket: string; failures: number; window_started_at: Date; blocked_until: Date | null }[] = await trx('login_throttle')
    .insert(sorted.map((bucket) => ({ bucket, failures: 0, window_started_at: now, updated_at: now })))
    .onConflict('bucket')
    // A no-op update, so an existing row is locked and returned as it stands.
    .merge(['bucket'])
    .returning(['bucket', 'failures', 'window_started_at', 'blocked_until']);
  return rows.map(toBucketRow);
}

function toBucketRow(row: { bucket: string; failures: number; window_started_at: Date; blocked_until: Date | null }): BucketRow {
  return { bucket: row.bucket, failures: row.failures, windowStartedAt: row.window_started_at, blockedUntil: row.blocked_until };
}

export async function saveBucket(
  trx: Db,
  bucket: string,
  values: { failures: number; windowStartedAt: Date; blockedUntil: Date | null; updatedAt: Date },
): Promise<void> {
  await trx('login_throttle')
    .where({ bucket })
    .update({
      failures: values.failures,
      window_started_at: values.windowStartedAt,
      // A wait already running is never shortened by a later, smaller one.
      blocked_until: values.blockedUntil
        ? trx.raw('GREATEST(COALESCE(blocked_until, ?), ?)', [values.blockedUntil, values.blockedUntil])
        : trx.raw('blocked_until'),
      updated_at: values.updatedAt,
    });
}

/** Gives back the count an admitted attempt took, once it turned out genuine. */
export async function refundAttempt(db: Db, bucket: string): Promise<void> {
  await db('login_throttle')
    .where({ bucket })
    .update({ failures: db.raw('GREATEST(failures - 1, 0)') });
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
