import type { Knex } from 'knex';
import type { Db } from '../db';
import type { SessionPrincipal } from '../lib/principal';
import type { ViewTags } from './view-tags';

/** One stored instance as the listing needs it; the view tags are null until read. */
export type ImageRow = {
  id: string;
  screeningId: number | null;
  examinedAt: Date | null;
  studyInstanceUid: string;
  studyDate: string | null;
  modality: string | null;
  storageKey: string;
  sizeBytes: number;
  createdAt: Date;
  viewTagsRead: boolean;
} & ViewTags;

const imageColumns = {
  id: 'd.id',
  screeningId: 'd.screening_id',
  examinedAt: 's.examined_at',
  studyInstanceUid: 'd.study_instance_uid',
  studyDate: 'd.study_date',
  modality: 'd.modality',
  storageKey: 'd.storage_key',
  sizeBytes: 'd.size_bytes',
  createdAt: 'd.created_at',
  laterality: 'd.image_laterality',
  viewPosition: 'd.view_position',
  transferSyntaxUid: 'd.transfer_syntax_uid',
  rows: 'd.image_rows',
  columns: 'd.image_columns',
  instanceNumber: 'd.instance_number',
} as const;

type RawImageRow = Omit<ImageRow, 'sizeBytes' | 'viewTagsRead'> & { sizeBytes: string | number; viewTagsReadAt: Date | null };

function imageRow(row: RawImageRow): ImageRow {
  const { viewTagsReadAt, ...rest } = row;
  return { ...rest, sizeBytes: Number(row.sizeBytes), viewTagsRead: viewTagsReadAt !== null };
}

/** The instances with the screening they were taken at, if any (`s`); no ownership yet. */
function instances(db: Db) {
  return db('dicom_instances as d').leftJoin('screenings as s', 's.id', 'd.screening_id');
}

async function selectImages(query: ReturnType<typeof instances>): Promise<ImageRow[]> {
  const rows: RawImageRow[] = await query.select({ ...imageColumns, viewTagsReadAt: 'd.view_tags_read_at' });
  return rows.map(imageRow);
}

/**
 * The images a caller may view, or the one of them with `id`: for a result-portal session those
 * taken at its one screening; for a patient account those of her screenings and the studies she
 * uploaded (screening_id NULL, her personal data), as POST /api/dicom and the disc image count them.
 */
export function ownedImages(db: Db, caller: SessionPrincipal, id?: string): Promise<ImageRow[]> {
  const query = instances(db);
  if (caller.kind === 'guest') query.where('d.screening_id', caller.screeningId);
  else
    query.whereRaw('coalesce(s.personal_data_id, d.personal_data_id) = ?', [
      db('users').where('id', caller.userId).select('personal_data_id'),
    ]);
  if (id !== undefined) query.where('d.id', id);
  return selectImages(query);
}

/** Where an image's bytes are, if it exists at all (ownership is the caller's question). */
export async function findImage(db: Db, id: string): Promise<ImageRow | undefined> {
  const [row] = await selectImages(instances(db).where('d.id', id));
  return row;
}

/**
 * Stores the tags read from the files, all rows in one statement, and marks them read so no
 * listing reads those files again.
 */
export async function saveViewTags(db: Db, tags: ReadonlyArray<{ id: string } & ViewTags>, readAt: Date): Promise<void> {
  if (tags.length === 0) return;
  await db.raw(
    `UPDATE dicom_instances AS d
        SET image_laterality = v.laterality, view_position = v.view_position, transfer_syntax_uid = v.transfer_syntax_uid,
            image_rows = v.image_rows, image_columns = v.image_columns, instance_number = v.instance_number,
            view_tags_read_at = ?
       FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[])
            AS v (id, laterality, view_position, transfer_syntax_uid, image_rows, image_columns, instance_number)
      WHERE d.id = v.id`,
    // node-postgres sends a JS array as a PostgreSQL array; knex's binding type does not say so.
    [
      readAt,
      tags.map((tag) => tag.id),
      tags.map((tag) => tag.laterality),
      tags.map((tag) => tag.viewPosition),
      tags.map((tag) => tag.transferSyntaxUid),
      tags.map((tag) => tag.rows),
      tags.map((tag) => tag.columns),
      tags.map((tag) => tag.instanceNumber),
    ] as unknown as Knex.RawBinding[],
  );
}
