import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EmbeddedDatabase } from '../embedded';
import { createDb, type Db } from '../../server/db';
import { ownedImages, saveViewTags } from '../../server/images/repo';
import { startTestEmbeddedDatabase } from '../../tests/support/embedded-template';
import { migrationSource } from './index';

/**
 * Migration 009 on a database that already has images: the rows stored before keep everything
 * and wait, unread, for the images listing to fill their view tags; the tags' checks hold; rolling
 * back and forth works. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
const schema = `test_${randomBytes(6).toString('hex')}`;
let embedded: EmbeddedDatabase | undefined;
let db: Db;

const MIGRATION = '009_image_view_tags';
const VIEW_TAG_COLUMNS = [
  'image_columns',
  'image_laterality',
  'image_rows',
  'instance_number',
  'transfer_syntax_uid',
  'view_position',
  'view_tags_read_at',
];
const config = (): Knex.MigratorConfig => ({ migrationSource, schemaName: schema });

const nameOf = (entry: unknown) =>
  typeof entry === 'string' ? entry : ((entry as { file?: string; name?: string }).file ?? (entry as { name: string }).name);

async function pendingMigrations(): Promise<string[]> {
  const [, pending] = (await db.migrate.list(config())) as [unknown[], unknown[]];
  return pending.map(nameOf);
}

async function instanceColumns(): Promise<string[]> {
  const columns = await db('information_schema.columns')
    .where({ table_schema: schema, table_name: 'dicom_instances' })
    .pluck<string[]>('column_name');
  return columns.sort();
}

let personId: number;
let userId: number;
let imageId: string;

beforeAll(async () => {
  let url = inject('databaseUrl');
  if (inject('databaseKind') === 'pglite') {
    embedded = await startTestEmbeddedDatabase();
    url = embedded.url;
  }
  db = createDb({ url, schema, poolMax: embedded?.poolMax ?? 4 });
  await db.raw('CREATE SCHEMA ??', [schema]);
  // The portal as it was before 009, with an uploaded image.
  while ((await pendingMigrations())[0] !== MIGRATION) await db.migrate.up(config());
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

afterAll(async () => {
  try {
    await db?.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
  } finally {
    await db?.destroy();
    await embedded?.stop();
  }
});

describe('migration 009_image_view_tags', () => {
  it('adds the view tags as nulls to the images stored before, unread', async () => {
    expect(await instanceColumns()).not.toContain('view_tags_read_at');
    await db.migrate.up(config());
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
    await db.migrate.down(config());
    const columns = await instanceColumns();
    for (const column of VIEW_TAG_COLUMNS) expect(columns).not.toContain(column);
    expect(await db('dicom_instances').pluck('id')).toEqual([imageId]);
    await db.migrate.latest(config());
    expect(await instanceColumns()).toEqual(expect.arrayContaining(VIEW_TAG_COLUMNS));
    expect(await db('dicom_instances').whereNull('view_tags_read_at').pluck('id')).toEqual([imageId]);
  });
});
