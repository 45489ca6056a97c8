import type { Knex } from 'knex';
import type { Db } from '../db';

type IsoImageStatus = 'new' | 'in_progress' | 'done' | 'removed' | 'failed';
export type IsoImageRow = {
  status: IsoImageStatus;
  storageKey: string | null;
  sizeBytes: number | null;
  examinedAt: Date;
  jobId: string | null;
  dead: boolean;
};
export type ScreeningImage = { storageKey: string; sizeBytes: number };

const PENDING: IsoImageStatus[] = ['new', 'in_progress'];

/**
 * A build whose process died: still `in_progress`, but its job has not said it is alive since
 * `deadBefore` (a row from before heartbeats counts from its start; one never started is not dead).
 */
const DEAD_BUILD = `i.status = 'in_progress' AND coalesce(i.heartbeat_at, i.started_at) < ?`;

/** `dead`: a build whose process died (DEAD_BUILD); `jobId`: the queue's job of the latest attempt. */
export async function findIsoImage(db: Db, screeningId: number, deadBefore: Date): Promise<IsoImageRow | undefined> {
  return db('iso_images as i')
    .join('screenings as s', 's.id', 'i.screening_id')
    .where('i.screening_id', screeningId)
    .first({
      status: 'i.status',
      storageKey: 'i.storage_key',
      sizeBytes: 'i.size_bytes',
      examinedAt: 's.examined_at',
      jobId: 'i.job_id',
      dead: db.raw(`coalesce(${DEAD_BUILD}, false)`, [deadBefore]),
    });
}

/**
 * The DICOM instances a screening's disc holds: the screening's own images and the studies its
 * patient uploaded (screening_id NULL, same personal data). The UNIQUE (personal_data_id,
 * sop_instance_uid) constraint keeps an image from being both.
 */
function discInstances(db: Db, screeningId: number) {
  return db('dicom_instances as d')
    .join('screenings as s', function joinOwnOrUploaded() {
      this.on('s.id', '=', 'd.screening_id').orOn(function uploaded() {
        this.onNull('d.screening_id').andOn('s.personal_data_id', '=', 'd.personal_data_id');
      });
    })
    .where('s.id', screeningId);
}

export async function hasImages(db: Db, screeningId: number): Promise<boolean> {
  return (await discInstances(db, screeningId).first('d.id')) !== undefined;
}

/** Images of the queue right now (the partial index iso_images_pending_idx answers it). */
export async function countPending(db: Db): Promise<number> {
  const [row] = await db('iso_images').whereIn('status', PENDING).count({ n: '*' });
  return Number(row?.n ?? 0);
}

/**
 * Records a request unless one is already waiting, being built (by a live process) or done: true
 * when this call made it, so two clicks at once queue one build.
 */
export async function requestIsoImage(db: Db, screeningId: number, now: Date, deadBefore: Date): Promise<boolean> {
  const result = await db.raw(
    `INSERT INTO iso_images AS i (screening_id, status, attempts, requested_at)
     VALUES (?, 'new', 0, ?)
     ON CONFLICT (screening_id) DO UPDATE
       SET status = 'new', attempts = 0, failure = NULL, requested_at = EXCLUDED.requested_at,
           started_at = NULL, finished_at = NULL, storage_key = NULL, size_bytes = NULL,
           heartbeat_at = NULL, job_id = NULL
       WHERE i.status IN ('removed', 'failed') OR (${DEAD_BUILD})
     RETURNING screening_id`,
    [screeningId, now, deadBefore],
  );
  return result.rows.length > 0;
}

/** Undoes a request whose job could not be queued, so the patient may ask again. */
export async function withdrawRequest(db: Db, screeningId: number): Promise<void> {
  await db('iso_images').where({ screening_id: screeningId, status: 'new' }).delete();
}

/**
 * The start of one build attempt by job `jobId`: from a waiting request, or taking over a build
 * whose process died. Undefined when nothing is waiting for it any more, or a live build has it.
 */
export async function startAttempt(
  db: Db,
  screeningId: number,
  jobId: string,
  now: Date,
  deadBefore: Date,
): Promise<{ previousKey: string | null } | undefined> {
  const result = await db.raw(
    `UPDATE iso_images AS i
       SET status = 'in_progress', started_at = ?, heartbeat_at = ?, job_id = ?, attempts = attempts + 1
     WHERE i.screening_id = ? AND (i.status = 'new' OR (${DEAD_BUILD}))
     RETURNING storage_key`,
    [now, now, jobId, screeningId, deadBefore],
  );
  const row = result.rows[0] as { storage_key: string | null } | undefined;
  return row ? { previousKey: row.storage_key } : undefined;
}

/** The build of job `jobId` is alive; false when the row is no longer its (taken over, withdrawn). */
export async function beat(db: Db, screeningId: number, jobId: string, now: Date): Promise<boolean> {
  const updated = await db('iso_images')
    .where({ screening_id: screeningId, status: 'in_progress', job_id: jobId })
    .update({ heartbeat_at: now });
  return updated > 0;
}

/** The end of job `jobId`'s build; false when another attempt has the row now (its file is not kept). */
export async function finishAttempt(
  db: Db,
  screeningId: number,
  jobId: string,
  built: { storageKey: string; sizeBytes: number },
  now: Date,
): Promise<boolean> {
  const updated = await db('iso_images')
    .where({ screening_id: screeningId, status: 'in_progress', job_id: jobId })
    .update({ status: 'done', storage_key: built.storageKey, size_bytes: built.sizeBytes, finished_at: now, failure: null });
  return updated > 0;
}

/** A failed attempt of job `jobId`: back to `new` while retries remain, `failed` after the last one. */
export async function failAttempt(db: Db, screeningId: number, jobId: string, final: boolean, failure: string, now: Date): Promise<void> {
  await db('iso_images')
    .where({ screening_id: screeningId, status: 'in_progress', job_id: jobId })
    .update({ status: final ? 'failed' : 'new', failure: failure.slice(0, 500), finished_at: final ? now : null });
}

/**
 * The statement that sets the built images `condition` picks (SQL on `i`, the iso_images row) to
 * removed, answering the storage keys they had (`storage_key`), for the caller to delete the files.
 * The self-join hands back the value from before the update.
 */
const removeDoneImagesStatement = (condition: string) =>
  `UPDATE iso_images AS i SET status = 'removed', storage_key = NULL, size_bytes = NULL
   FROM iso_images AS before
   WHERE before.screening_id = i.screening_id AND i.status = 'done' AND (${condition})
   RETURNING before.storage_key`;

async function removeDoneImages(db: Db, condition: string, bindings: Array<number | Date>): Promise<string[]> {
  const result = await db.raw(removeDoneImagesStatement(condition), bindings);
  return result.rows.map((row: { storage_key: string }) => row.storage_key);
}

const OF_PATIENT = 'i.screening_id IN (SELECT id FROM screenings WHERE personal_data_id = ?)';

/** Built images of every screening of one patient (her uploads changed what belongs on them). */
export function removeDoneImagesOfPatient(db: Db, personalDataId: number): Promise<string[]> {
  return removeDoneImages(db, OF_PATIENT, [personalDataId]);
}

/**
 * removeDoneImagesOfPatient as a part of the caller's own statement (a CTE answering
 * `storage_key`), applied only when `when` (SQL) holds: a statement storing her images drops her
 * built discs in the same round trip, and in the same transaction.
 */
export function doneImagesOfPatientRemovedWhen(db: Knex, personalDataId: number, when: string): Knex.Raw {
  return db.raw(removeDoneImagesStatement(`${OF_PATIENT} AND ${when}`), [personalDataId]);
}

/** Built images finished before `cutoff` (ISO_RETENTION_DAYS). */
export function removeDoneImagesBuiltBefore(db: Db, cutoff: Date): Promise<string[]> {
  return removeDoneImages(db, 'i.finished_at < ?', [cutoff]);
}

export async function markRemoved(db: Db, screeningId: number): Promise<void> {
  await db('iso_images')
    .where({ screening_id: screeningId, status: 'done' })
    .update({ status: 'removed', storage_key: null, size_bytes: null });
}

export async function screeningImages(db: Db, screeningId: number): Promise<ScreeningImage[]> {
  // Own images first, then uploads in the order they came; the file set sorts them by study anyway.
  return discInstances(db, screeningId)
    .orderByRaw('d.screening_id IS NULL, d.created_at, d.id')
    .select({ storageKey: 'd.storage_key', sizeBytes: 'd.size_bytes' });
}

export async function screeningExaminedAt(db: Db, screeningId: number): Promise<Date | undefined> {
  return (await db('screenings').where('id', screeningId).first('examined_at'))?.examined_at;
}

export async function isoInstruction(db: Db, language: 'pl' | 'en'): Promise<{ name: string; bytes: Buffer } | undefined> {
  const row = await db('instructions').where({ type: 'iso', language }).first('name', 'content');
  return row ? { name: row.name, bytes: row.content } : undefined;
}

/** Which of these storage keys a disc image row holds (the sweep of unnamed files). */
export async function namedIsoKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  return new Set(await db('iso_images').whereIn('storage_key', keys).pluck('storage_key'));
}
