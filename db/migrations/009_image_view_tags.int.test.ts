import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { ownedImages, saveViewTags } from '../../server/images/repo';
import { databaseBefore, type MigrationDatabase } from '../../tests/support/migration-database';

/**
 * Migration 009 on a database that already has images: the rows stored before keep everything
 * and wait, unread, for the images listing to fill their view tags; the tags' checks hold; rolling
 * back and forth works. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
let migration: MigrationDatabase;
let db: Db;

const VIEW_TAG_COLUMNS = [
  'image_columns',
  'image_laterality',
  'image_rows',
  'instance_number',
  'transfer_syntax_uid',
  'view_position',
  'view_tags_read_at',
];

async function instanceColumns(): Promise<string[]> {
  const columns = await db('information_schema.columns')
    .where({ table_schema: migration.schema, table_name: 'dicom_instances' })
    .pluck<string[]>('column_name');
  return columns.sort();
}

let personId: number;
let userId: number;
let imageId: string;

beforeAll(async () => {
  // The portal as it was before 009, with an uploaded image.
  migration = await databaseBefore('009_image_view_tags');
  db = migration.db;
  const [person] = await db('personal_data')
    .insert({ first_name: 'Halina', last_name: 'Obrazowa', birth_at: '1961-02-03' })
    .returning<{ id: number }[]>('id');
  personId = person!.id;
  const [user] = await db('users')
    .insert({ personal_data_id: personId, email: 'halina@example.com', password_hash: '$argon2id$not-a-real-hash' })
    .returning<{ id: number }[]>('id');
  userId = user!.id;
  const [image] = await db('dicom_instances')
    .insert({
      personal_data_id: personId,
      uploaded_by_user_id: userId,
      sop_instance_uid: '1.2.3.4',
      sop_class_uid: '1.2.840.10008.5.1.4.1.1.1.2',
      study_instance_uid: '1.2.3',
      series_instance_uid: '1.2.3.1',
      modality: 'MG',
      study_date: '2019-05-06',
      storage_key: 'dicom/before-009.dcm',
      size_bytes: 4096,
    })
    .returning<{ id: string }[]>('id');
  imageId = image!.id;
});

afterAll(() => migration?.drop());

describe('migration 009_image_view_tags', () => {
  it('adds the view tags as nulls to the images stored before, unread', async () => {
    expect(await instanceColumns()).not.toContain('view_tags_read_at');
    await migration.up();
    expect(await instanceColumns()).toEqual(expect.arrayContaining(VIEW_TAG_COLUMNS));
    const [image] = await ownedImages(db, { kind: 'patient', userId, requirePasswordChange: false });
    expect(image).toMatchObject({
      id: imageId,
      studyDate: '2019-05-06',
      sizeBytes: 4096,
      laterality: null,
      viewPosition: null,
      transferSyntaxUid: null,
      rows: null,
      columns: null,
      instanceNumber: null,
      viewTagsRead: false,
    });
  });

  it('keeps the tags the listing reads, and refuses values no header can give', async () => {
    const tags = {
      laterality: 'L' as const,
      viewPosition: 'MLO',
      transferSyntaxUid: '1.2.840.10008.1.2.4.90',
      rows: 6144,
      columns: 4096,
      instanceNumber: 3,
    };
    await saveViewTags(db, [{ id: imageId, ...tags }], new Date('2026-11-26T08:00:00Z'));
    const [image] = await ownedImages(db, { kind: 'patient', userId, requirePasswordChange: false });
    expect(image).toMatchObject({ ...tags, viewTagsRead: true });

    for (const wrong of [
      { image_laterality: 'B' },
      { image_rows: 0 },
      { transfer_syntax_uid: 'JPEG' },
      { view_position: 'X'.repeat(17) },
    ]) {
      await expect(db('dicom_instances').where('id', imageId).update(wrong)).rejects.toMatchObject({ code: '23514' });
    }
  });

  it('rolls back, keeping the images, and forward again', async () => {
    await migration.down();
    const columns = await instanceColumns();
    for (const column of VIEW_TAG_COLUMNS) expect(columns).not.toContain(column);
    expect(await db('dicom_instances').pluck('id')).toEqual([imageId]);
    await migration.latest();
    expect(await instanceColumns()).toEqual(expect.arrayContaining(VIEW_TAG_COLUMNS));
    expect(await db('dicom_instances').whereNull('view_tags_read_at').pluck('id')).toEqual([imageId]);
  });
});
