import type { Db } from '../db';

export type IsoImageStatus = 'new' | 'in_progress' | 'done' | 'removed' | 'failed';
export type IsoImageRow = { status: IsoImageStatus; storageKey: string | null; sizeBytes: number | null; examinedAt: Date };
export type ScreeningImage = { storageKey: string; sizeBytes: number };

const PENDING: IsoImageStatus[] = ['new', 'in_progress'];

export async function findIsoImage(db: Db, screeningId: number): Promise<IsoImageRow | undefined> {
  return db('iso_images as i')
    .join('screenings as s', 's.id', 'i.screening_id')
    .where('i.screening_id', screeningId)
    .first({ status: 'i.status', storageKey: 'i.storage_key', sizeBytes: 'i.size_bytes', examinedAt: 's.examined_at' });
}

export async function hasImages(db: Db, screeningId: number): Promise<boolean> {
  return (await db('dicom_instances').where('screening_id', screeningId).first('id')) !== undefined;
}

/** Images of the queue right now (the partial index iso_images_pending_idx answers it). */
export async function countPending(db: Db): Promise<number> {
  const [row] = await db('iso_images').whereIn('status', PENDING).count({ n: '*' });
  return Number(row?.n ?? 0);
}

/**
 * Records a request unless one is already waiting, being built or done: true when this call made
 * it, so two clicks at once queue one build.
 */
export async function requestIsoImage(db: Db, screeningId: number, now: Date): Promise<boolean> {
  const result = await db.raw(
    `INSERT INTO iso_images (screening_id, status, attempts, requested_at)
     VALUES (?, 'new', 0, ?)
     ON CONFLICT (screening_id) DO UPDATE
       SET status = 'new', attempts = 0, failure = NULL, requested_at = EXCLUDED.requested_at,
           started_at = NULL, finished_at = NULL, storage_key = NULL, size_bytes = NULL
       WHERE iso_images.status IN ('removed', 'failed')
     RETURNING screening_id`,
    [screeningId, now],
  );
  return result.rows.length > 0;
}

/** Undoes a request whose job could not be queued, so the patient may ask again. */
export async function withdrawRequest(db: Db, screeningId: number): Promise<void> {
  await db('iso_images').where({ screening_id: screeningId, status: 'new' }).delete();
}

/** The start of one build attempt; undefined when nothing is waiting for it any more. */
export async function startAttempt(db: Db, screeningId: number, now: Date): Promise<{ previousKey: string | null } | undefined> {
  const [row] = await db('iso_images')
    .where('screening_id', screeningId)
    .whereIn('status', PENDING)
    .update({ status: 'in_progress', started_at: now, attempts: db.raw('attempts + 1') })
    .returning(['storage_key']);
  return row ? { previousKey: row.storage_key } : undefined;
}

export async function finishAttempt(db: Db, screeningId: number, storageKey: string, sizeBytes: number, now: Date): Promise<boolean> {
  const updated = await db('iso_images')
    .where({ screening_id: screeningId, status: 'in_progress' })
    .update({ status: 'done', storage_key: storageKey, size_bytes: sizeBytes, finished_at: now, failure: null });
  return updated > 0;
}

/** A failed attempt: back to `new` while retries remain, `failed` after the last one. */
export async function failAttempt(db: Db, screeningId: number, final: boolean, failure: string, now: Date): Promise<void> {
  await db('iso_images')
    .where({ screening_id: screeningId, status: 'in_progress' })
    .update({ status: final ? 'failed' : 'new', failure: failure.slice(0, 500), finished_at: final ? now : null });
}

export async function markRemoved(db: Db, screeningId: number): Promise<void> {
  await db('iso_images').where({ screening_id: screeningId, status: 'done' }).update({ status: 'removed', storage_key: null, size_bytes: null });
}

export async function screeningImages(db: Db, screeningId: number): Promise<ScreeningImage[]> {
  return db('dicom_instances')
    .where('screening_id', screeningId)
    .orderBy('id')
    .select({ storageKey: 'storage_key', sizeBytes: 'size_bytes' });
}

export async function screeningExaminedAt(db: Db, screeningId: number): Promise<Date | undefined> {
  return (await db('screenings').where('id', screeningId).first('examined_at'))?.examined_at;
}

export async function isoInstruction(db: Db, language: 'pl' | 'en'): Promise<{ name: string; bytes: Buffer } | undefined> {
  const row = await db('instructions').where({ type: 'iso', language }).first('name', 'content');
  return row ? { name: row.name, bytes: row.content } : undefined;
}
