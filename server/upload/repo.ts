import type { Knex } from 'knex';
import type { UploadedStudy } from '../../common/types/upload';
import type { Db } from '../db';
import { doneImagesOfPatientRemovedWhen } from '../iso';
import type { DicomHeader } from './dicom-header';

export type NewInstance = DicomHeader & { storageKey: string; sizeBytes: number };

export async function personalDataIdOf(db: Db, userId: number): Promise<number | undefined> {
  const row = await db('users').where('id', userId).first('personal_data_id');
  return row?.personal_data_id;
}

/**
 * Serialises the uploads of one patient account: held until the transaction ends, so two
 * requests cannot both pass the quota or both insert the same image.
 */
export async function lockUploadsOf(trx: Knex.Transaction, userId: number): Promise<void> {
  await trx('users').where('id', userId).forUpdate().first('id');
}

/** The SOP instances among `uids` the patient already has, uploaded or from a screening. */
export async function knownInstances(db: Db, personalDataId: number, uids: string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const rows: { sop_instance_uid: string }[] = await db('dicom_instances')
    .where('personal_data_id', personalDataId)
    .whereIn('sop_instance_uid', uids)
    .select('sop_instance_uid');
  return new Set(rows.map((row) => row.sop_instance_uid));
}

/** What insertUploadedInstances found and did. */
export type InsertedInstances = {
  /** The bytes she had uploaded herself before this statement (her quota; the provider's images do not count). */
  usedBytesBefore: number;
  /** What `reserved` (InStatement) found reserved against her quota besides her images; 0 without it. */
  reservedBytes: number;
  /** The SOP instance UIDs it inserted: the others she had already, uploaded or from a screening. */
  inserted: Set<string>;
  /** The storage keys of the built disc images it dropped, for the caller to delete after the commit. */
  droppedDiscKeys: string[];
};

/**
 * What a caller adds to the statement that stores the images (no round trip of its own):
 * `record`, its own record, given SQL true when that statement inserted an image; `reserved`,
 * SQL for the bytes reserved against her quota besides her images, read in the same snapshot.
 */
export type InStatement = { record?: (stored: Knex.Raw) => Knex.QueryBuilder; reserved?: Knex.Raw };

/**
 * Stores the rows of her uploaded instances, in one statement (it runs for every file of a
 * resumable upload), under her uploads lock (lockUploadsOf, taken by an earlier statement: this
 * one's reads then see every upload committed before hers). An instance she has already is
 * skipped by the unique key. When any was inserted, the built disc images of her screenings are
 * dropped (server/iso: the new images belong on them), so no disc without them is served once
 * they are committed, whatever happens after the commit. The quota is the caller's to check with
 * what this answers (`also`: InStatement): rolling the transaction back undoes all of it.
 */
export async function insertUploadedInstances(
  trx: Knex.Transaction,
  personalDataId: number,
  userId: number,
  rows: NewInstance[],
  also: InStatement = {},
): Promise<InsertedInstances> {
  if (rows.length === 0) throw new Error('no instances to insert');
  const insert = trx('dicom_instances')
    .insert(
      rows.map((row) => ({
        personal_data_id: personalDataId,
        screening_id: null,
        uploaded_by_user_id: userId,
        sop_instance_uid: row.sopInstanceUid,
        sop_class_uid: row.sopClassUid,
        study_instance_uid: row.studyInstanceUid,
        series_instance_uid: row.seriesInstanceUid,
        modality: row.modality,
        study_date: row.studyDate,
        storage_key: row.storageKey,
        size_bytes: row.sizeBytes,
      })),
    )
    .onConflict(['personal_data_id', 'sop_instance_uid'])
    .ignore()
    .returning('sop_instance_uid');
  // The parts of one WITH share the statement's snapshot: `usage` does not see the rows `inserted` adds.
  const statement = trx
    .with(
      'usage',
      usedBytesQuery(trx, personalDataId).select(also.reserved ? trx.raw('(?) AS reserved', [also.reserved]) : trx.raw('0 AS reserved')),
    )
    .with('inserted', insert)
    .with('dropped', doneImagesOfPatientRemovedWhen(trx, personalDataId, 'EXISTS (SELECT 1 FROM inserted)'));
  // A data-modifying part of a WITH runs to completion though nothing selects from it.
  if (also.record) statement.with('recorded', also.record(trx.raw('EXISTS (SELECT 1 FROM inserted)')));
  const [row]: { used: string | number; reserved: string | number; inserted: string[]; dropped: string[] }[] = await statement.select(
    trx.raw('(SELECT used FROM usage) AS used'),
    trx.raw('(SELECT reserved FROM usage) AS reserved'),
    trx.raw(`(SELECT coalesce(array_agg(sop_instance_uid), '{}') FROM inserted) AS inserted`),
    trx.raw(`(SELECT coalesce(array_agg(storage_key), '{}') FROM dropped) AS dropped`),
  );
  return {
    usedBytesBefore: Number(row!.used),
    reservedBytes: Number(row!.reserved),
    inserted: new Set(row!.inserted),
    droppedDiscKeys: row!.dropped,
  };
}

/** The bytes she uploaded herself (her quota: the provider's images do not count), as `used`. */
function usedBytesQuery(db: Knex, personalDataId: number) {
  return db('dicom_instances')
    .where('personal_data_id', personalDataId)
    .select(db.raw('coalesce(sum(size_bytes) FILTER (WHERE screening_id IS NULL), 0) AS used'));
}

/** The patient's uploaded studies, the most recently uploaded first. */
export async function uploadedStudies(db: Db, personalDataId: number): Promise<UploadedStudy[]> {
  const rows: {
    study: string;
    study_date: string | null;
    modalities: (string | null)[];
    instances: number;
    size_bytes: number;
    last_uploaded_at: Date;
  }[] = await db('dicom_instances')
    .where('personal_data_id', personalDataId)
    .whereNull('screening_id')
    .groupBy('study_instance_uid')
    .select({
      study: 'study_instance_uid',
      study_date: db.raw('max(study_date)'),
      modalities: db.raw('array_agg(DISTINCT modality ORDER BY modality)'),
      instances: db.raw('count(*)::int'),
      size_bytes: db.raw('sum(size_bytes)::bigint'),
      last_uploaded_at: db.raw('max(created_at)'),
    })
    .orderBy([
      { column: 'last_uploaded_at', order: 'desc' },
      { column: 'study', order: 'asc' },
    ]);
  return rows.map((row) => ({
    studyInstanceUid: row.study,
    studyDate: row.study_date,
    modalities: row.modalities.filter((modality): modality is string => modality !== null),
    instances: row.instances,
    sizeBytes: Number(row.size_bytes),
    lastUploadedAt: row.last_uploaded_at.toISOString(),
  }));
}

/** Which of these storage keys an image row holds (the sweep of unnamed files, orphan-files.ts). */
export async function namedImageKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  return new Set(await db('dicom_instances').whereIn('storage_key', keys).pluck('storage_key'));
}
