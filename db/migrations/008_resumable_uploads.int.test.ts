import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { databaseBefore, type MigrationDatabase } from '../../tests/support/migration-database';

/**
 * Migration 008 (resumable uploads) on a portal that has patients: the two tables appear, their
 * checks hold, and rolling back and forth works. Runs on PGlite and, with DATABASE_URL, on
 * PostgreSQL.
 */
let migration: MigrationDatabase;
let db: Db;
let userId: number;
let personId: number;

async function tables(): Promise<string[]> {
  const names = await db('information_schema.tables')
    .where({ table_schema: migration.schema })
    .whereIn('table_name', ['resumable_uploads', 'resumable_upload_locks'])
    .pluck<string[]>('table_name');
  return names.sort();
}

const upload = (overrides: Record<string, unknown> = {}) => ({
  id: randomBytes(16).toString('hex'),
  batch: randomUUID(),
  user_id: userId,
  personal_data_id: personId,
  length: 1000,
  created_at: new Date(),
  expires_at: new Date(Date.now() + 3600_000),
  ...overrides,
});

beforeAll(async () => {
  migration = await databaseBefore('008_resumable_uploads');
  db = migration.db;
  const [person] = await db('personal_data')
    .insert({ first_name: 'Halina', last_name: 'Wgrywa', birth_at: '1961-02-03' })
    .returning<{ id: number }[]>('id');
  personId = person!.id;
  const [user] = await db('users')
    .insert({ personal_data_id: personId, email: 'halina@example.com', password_hash: '$argon2id$v=19$test' })
    .returning<{ id: number }[]>('id');
  userId = user!.id;
});

afterAll(() => migration?.drop());

describe('migration 008_resumable_uploads', () => {
  it('adds the uploads and their leases', async () => {
    expect(await tables()).toEqual([]);
    await migration.up();
    expect(await tables()).toEqual(['resumable_upload_locks', 'resumable_uploads']);
  });

  it('keeps an upload whole: a real id, an owner, a reason exactly when refused', async () => {
    await db('resumable_uploads').insert(upload());
    await db('resumable_uploads').insert(upload({ outcome: 'refused', refusal_reason: 'not_dicom', completed_at: new Date() }));
    await db('resumable_uploads').insert(upload({ outcome: 'stored', completed_at: new Date() }));
    const violations = [
      upload({ id: '../../etc/passwd' }),
      upload({ length: -1 }),
      upload({ user_id: null }),
      upload({ outcome: 'refused', completed_at: new Date() }),
      upload({ outcome: 'stored', refusal_reason: 'not_dicom', completed_at: new Date() }),
      upload({ outcome: 'stored' }),
      upload({ refusal_reason: 'not_dicom' }),
      upload({ outcome: 'kept', completed_at: new Date() }),
      upload({ batch: null }),
      upload({ batch: '../x' }),
      upload({ audited_at: new Date() }),
    ];
    for (const row of violations)
      await expect(db('resumable_uploads').insert(row)).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
    expect(await db('resumable_uploads').count<{ count: number }[]>('* as count')).toEqual([{ count: 3 }]);
  });

  it('rolls back and forward again', async () => {
    await migration.down();
    expect(await tables()).toEqual([]);
    await migration.latest();
    expect(await tables()).toEqual(['resumable_upload_locks', 'resumable_uploads']);
  });
});
