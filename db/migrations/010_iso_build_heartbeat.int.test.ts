import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db';
import { findIsoImage } from '../../server/iso/repo';
import { databaseBefore, type MigrationDatabase } from '../../tests/support/migration-database';

/**
 * Migration 010 on a database with disc images requested and in progress: the rows keep
 * everything; a build in progress from before heartbeats is judged by its start (one started long
 * ago is dead, one never started is not); rolling back and forth works. Runs on PGlite and, with
 * DATABASE_URL, on PostgreSQL.
 */
let migration: MigrationDatabase;
let db: Db;
const screeningIds: number[] = [];
const NOW = new Date('2026-11-26T12:00:00Z');
const A_MINUTE_BEFORE = new Date(NOW.getTime() - 60_000);

async function isoColumns(): Promise<string[]> {
  return db('information_schema.columns')
    .where({ table_schema: migration.schema, table_name: 'iso_images' })
    .pluck<string[]>('column_name');
}

beforeAll(async () => {
  migration = await databaseBefore('010_iso_build_heartbeat');
  db = migration.db;
  const [person] = await db('personal_data')
    .insert({ first_name: 'Irena', last_name: 'Obrazowa', birth_at: '1959-03-04' })
    .returning<{ id: number }[]>('id');
  for (const code of [1, 2]) {
    const [screening] = await db('screenings')
      .insert({ personal_data_id: person!.id, access_code_hash: Buffer.alloc(32, code), examined_at: '2026-10-01T09:00:00Z' })
      .returning<{ id: number }[]>('id');
    screeningIds.push(screening!.id);
  }
  await db('iso_images').insert([
    { screening_id: screeningIds[0], status: 'in_progress', attempts: 1, started_at: new Date(NOW.getTime() - 20 * 60_000) },
    { screening_id: screeningIds[1], status: 'in_progress', attempts: 0 },
  ]);
});

afterAll(() => migration?.drop());

describe('migration 010_iso_build_heartbeat', () => {
  it('adds the heartbeat and the job as nulls; a build started long before counts as dead, one never started does not', async () => {
    expect(await isoColumns()).not.toContain('heartbeat_at');
    await migration.up();
    expect(await isoColumns()).toEqual(expect.arrayContaining(['heartbeat_at', 'job_id']));
    expect(await findIsoImage(db, screeningIds[0]!, A_MINUTE_BEFORE)).toMatchObject({ status: 'in_progress', jobId: null, dead: true });
    expect(await findIsoImage(db, screeningIds[1]!, A_MINUTE_BEFORE)).toMatchObject({ status: 'in_progress', jobId: null, dead: false });
  });

  it('rolls back, keeping the rows, and forward again', async () => {
    await migration.down();
    const columns = await isoColumns();
    expect(columns).not.toContain('heartbeat_at');
    expect(columns).not.toContain('job_id');
    expect((await db('iso_images').pluck('screening_id')).sort()).toEqual([...screeningIds].sort());
    await migration.latest();
    expect(await isoColumns()).toEqual(expect.arrayContaining(['heartbeat_at', 'job_id']));
  });
});
