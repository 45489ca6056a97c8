import type { Knex } from 'knex';
import type { ResumableUploadOutcome, UploadRefusalReason } from '../../../common/types/upload';
import type { Db } from '../../db';

/** One resumable upload as `resumable_uploads` keeps it (db/migrations/008_resumable_uploads.ts). */
export type ResumableUploadRow = {
  id: string;
  userId: number;
  personalDataId: number;
  length: number;
  metadata: Record<string, string | null>;
  /** The pick this file belongs to: its completions share one DICOM_UPLOAD audit entry. */
  batch: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set once the last byte arrived and the file was checked; null while bytes are missing. */
  outcome: ResumableUploadOutcome | null;
};

type Row = {
  id: string;
  user_id: number;
  personal_data_id: number;
  length: string | number;
  metadata: Record<string, string | null>;
  batch: string;
  created_at: Date;
  expires_at: Date;
  outcome: 'stored' | 'duplicate' | 'refused' | null;
  refusal_reason: string | null;
};

function fromRow(row: Row): ResumableUploadRow {
  return {
    id: row.id,
    userId: row.user_id,
    personalDataId: row.personal_data_id,
    length: Number(row.length),
    metadata: row.metadata,
    batch: row.batch,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    outcome: outcomeOf(row),
  };
}

function outcomeOf(row: Row): ResumableUploadOutcome | null {
  if (row.outcome === null) return null;
  if (row.outcome === 'refused') return { outcome: 'refused', reason: row.refusal_reason as UploadRefusalReason };
  return { outcome: row.outcome };
}

/** Her quota's two parts as SQL: bytes she uploaded herself (the provider's own images do not count), and RESERVED_BYTES below. */
const STORED_BYTES = `(SELECT coalesce(sum(size_bytes), 0) FROM dicom_instances WHERE personal_data_id = :personalDataId AND screening_id IS NULL)`;
/** Her unfinished, unexpired uploads: what they declared is held against her quota until they finish, are cancelled or expire. */
const UNFINISHED_UPLOADS = `FROM resumable_uploads WHERE personal_data_id = :personalDataId AND outcome IS NULL AND expires_at > :now`;
const RESERVED_BYTES = `(SELECT coalesce(sum(length), 0) ${UNFINISHED_UPLOADS})`;

/** What her unfinished, unexpired uploads hold against her quota at `now`, as SQL for a statement of her upload (../service.ts KeepOptions.reserved). */
export function reservedBytes(db: Knex, personalDataId: number, now: Date): Knex.Raw {
  return db.raw(RESERVED_BYTES, { personalDataId, now });
}

/**
 * Inserts the upload when what she stored, what her unfinished uploads declared and its own
 * length fit `quotaBytes`; answers whether it did. One statement and no lock: two creations at
 * the same moment may both pass, so reservations can exceed her quota by the files in flight.
 * That only makes the early refusal less exact; storing checks the quota again under her uploads
 * lock (../service.ts), and that check is the one that holds.
 */
export async function insertUploadWithinQuota(db: Db, upload: Omit<ResumableUploadRow, 'outcome'>, quotaBytes: number): Promise<boolean> {
  const result = await db.raw(
    `INSERT INTO resumable_uploads (id, user_id, personal_data_id, length, metadata, batch, created_at, expires_at)
     SELECT :id, :userId, :personalDataId, :length, :metadata::jsonb, :batch, :now, :expiresAt
     WHERE ${STORED_BYTES} + ${RESERVED_BYTES} + :length <= :quotaBytes
     RETURNING id`,
    {
      id: upload.id,
      userId: upload.userId,
      personalDataId: upload.personalDataId,
      length: upload.length,
      metadata: JSON.stringify(upload.metadata),
      batch: upload.batch,
      now: upload.createdAt,
      expiresAt: upload.expiresAt,
      quotaBytes,
    },
  );
  return result.rows.length > 0;
}

/** What the patient's quota holds now: stored bytes, reserved bytes, and when the last reservation lapses. */
export type QuotaUsage = { usedBytes: number; reservedBytes: number; reservedUntil: string | null };

/** Her quota's two parts now: to tell her why an upload was refused, and on the upload page. */
export async function quotaUsage(db: Db, personalDataId: number, now: Date): Promise<QuotaUsage> {
  const result = await db.raw(
    `SELECT ${STORED_BYTES} AS used, reserved, until
     FROM (SELECT coalesce(sum(length), 0) AS reserved, max(expires_at) AS until ${UNFINISHED_UPLOADS}) AS unfinished`,
    { personalDataId, now },
  );
  const row = result.rows[0] as { used: string | number; reserved: string | number; until: Date | string | null };
  return {
    usedBytes: Number(row.used),
    reservedBytes: Number(row.reserved),
    reservedUntil: row.until === null ? null : new Date(row.until).toISOString(),
  };
}

export async function findUpload(db: Db, id: string): Promise<ResumableUploadRow | undefined> {
  const row: Row | undefined = await db('resumable_uploads').where('id', id).first();
  return row && fromRow(row);
}

export async function deleteUpload(db: Db, id: string): Promise<void> {
  await db('resumable_uploads').where('id', id).delete();
}

/** Those of `ids` that still have a row. */
export async function existingUploadIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: string[] = await db('resumable_uploads').whereIn('id', ids).pluck('id');
  return new Set(rows);
}

/** When an upload completed and until when its outcome is kept, and who sent its last byte. */
export type Completion = { completedAt: Date; expiresAt: Date; ip: string | undefined };

/**
 * The statement recording the outcome of a complete upload (`stored`: SQL, true when the image
 * was stored, else a duplicate), for the statement that stores it to include: it completes the
 * row the upload's creation reserved or, for a file its creating request brought whole (no row
 * yet: service.ts), inserts it. The row is kept until `expiresAt` for the client to ask.
 */
export function recordCompletion(
  db: Knex,
  upload: Omit<ResumableUploadRow, 'outcome'>,
  outcome: ResumableUploadOutcome | { stored: Knex.Raw },
  completion: Completion,
): Knex.QueryBuilder {
  const recorded =
    'stored' in outcome
      ? { outcome: db.raw(`CASE WHEN ? THEN 'stored' ELSE 'duplicate' END`, [outcome.stored]), refusal_reason: null }
      : { outcome: outcome.outcome, refusal_reason: outcome.outcome === 'refused' ? outcome.reason : null };
  return db('resumable_uploads')
    .insert({
      id: upload.id,
      user_id: upload.userId,
      personal_data_id: upload.personalDataId,
      length: upload.length,
      metadata: JSON.stringify(upload.metadata),
      batch: upload.batch,
      created_at: upload.createdAt,
      ...recorded,
      completed_at: completion.completedAt,
      expires_at: completion.expiresAt,
      completed_ip: completion.ip?.slice(0, 64) ?? null,
    })
    .onConflict('id')
    .merge(['outcome', 'refusal_reason', 'completed_at', 'expires_at', 'completed_ip']);
}

/**
 * Uploads past their time: unfinished ones (bytes and row go) and completed ones kept long enough,
 * once their batch's audit entry is written (the row is what that entry is made of).
 */
export async function expiredUploads(db: Db, now: Date, limit: number): Promise<string[]> {
  return db('resumable_uploads')
    .where('expires_at', '<=', now)
    .where((query) => query.whereNull('completed_at').orWhereNotNull('audited_at'))
    .orderBy('expires_at')
    .limit(limit)
    .pluck('id');
}

/** A batch with completions not yet in the audit log: whose, and which pick. */
export type UnauditedBatch = { userId: number; batch: string };

/** Batches whose last completion is older than `quietSince`: the patient has moved on from that pick. */
export async function quietUnauditedBatches(db: Db, quietSince: Date, limit: number): Promise<UnauditedBatch[]> {
  const rows: { user_id: number; batch: string }[] = await db('resumable_uploads')
    .whereNotNull('completed_at')
    .whereNull('audited_at')
    .groupBy('user_id', 'batch')
    .havingRaw('max(completed_at) <= ?', [quietSince])
    .limit(limit)
    .select('user_id', 'batch');
  return rows.map((row) => ({ userId: row.user_id, batch: row.batch }));
}

export type BatchCompletion = { outcome: 'stored' | 'duplicate' | 'refused'; completedIp: string | null };

/**
 * Takes the batch's completions that no audit entry counts yet, locked until the transaction
 * ends: a second process reporting the same batch waits, then finds them taken.
 */
export async function takeUnauditedCompletions(trx: Knex.Transaction, batch: UnauditedBatch, now: Date): Promise<BatchCompletion[]> {
  const rows: { outcome: BatchCompletion['outcome']; completed_ip: string | null }[] = await trx('resumable_uploads')
    .where({ user_id: batch.userId, batch: batch.batch })
    .whereNotNull('completed_at')
    .whereNull('audited_at')
    .update({ audited_at: now })
    .returning(['outcome', 'completed_ip']);
  return rows.map((row) => ({ outcome: row.outcome, completedIp: row.completed_ip }));
}

/**
 * A lease on one upload (server/upload/resumable/locker.ts): taken when nobody holds it or the
 * holder's lease ran out. The database's clock decides, so processes whose clocks differ agree.
 */
export async function tryTakeLease(db: Db, uploadId: string, holder: string, ttlMs: number): Promise<boolean> {
  const result = await db.raw(
    `INSERT INTO resumable_upload_locks (upload_id, holder, expires_at)
     VALUES (?, ?, now() + ?::int * interval '1 millisecond')
     ON CONFLICT (upload_id) DO UPDATE
       SET holder = excluded.holder, expires_at = excluded.expires_at, release_requested = false
       WHERE resumable_upload_locks.expires_at < now()
     RETURNING holder`,
    [uploadId, holder, ttlMs],
  );
  return result.rows.length > 0;
}

/** Asks whoever holds the lease to let go soon (tus: a newer request takes over a stale one). */
export async function askLeaseRelease(db: Db, uploadId: string): Promise<void> {
  await db('resumable_upload_locks').where('upload_id', uploadId).where('release_requested', false).update({ release_requested: true });
}

export type LeaseState = 'held' | 'release-requested' | 'lost';

/** Extends the holder's lease; says whether another request asked for it, or it was lost. */
export async function renewLease(db: Db, uploadId: string, holder: string, ttlMs: number): Promise<LeaseState> {
  const result = await db.raw(
    `UPDATE resumable_upload_locks SET expires_at = now() + ?::int * interval '1 millisecond'
     WHERE upload_id = ? AND holder = ?
     RETURNING release_requested`,
    [ttlMs, uploadId, holder],
  );
  const row = result.rows[0] as { release_requested: boolean } | undefined;
  if (!row) return 'lost';
  return row.release_requested ? 'release-requested' : 'held';
}

export async function releaseLease(db: Db, uploadId: string, holder: string): Promise<void> {
  await db('resumable_upload_locks').where({ upload_id: uploadId, holder }).delete();
}

/** Leases whose holder died: nobody renews them, and a new taker would overwrite them anyway. */
export async function removeExpiredLeases(db: Db): Promise<void> {
  await db('resumable_upload_locks').whereRaw('expires_at < now()').delete();
}
