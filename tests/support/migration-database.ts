import type { Knex } from 'knex';
import { migrationSource } from '../../db/migrations';
import type { Db } from '../../server/db';
import { openTestSchema } from './database';

/**
 * The database of one migration's test: a schema of its own on PGlite (or on PostgreSQL with
 * DATABASE_URL), migrated up to just before the migration under test, so the test can put the
 * portal's data as it was there, then run the migration on it, back and forth.
 */
export type MigrationDatabase = {
  db: Db;
  schema: string;
  /** Names of the migrations not run yet, in order; the first is the one under test until `up`. */
  pending(): Promise<string[]>;
  completed(): Promise<string[]>;
  /** Runs the next migration: the one under test. */
  up(): Promise<void>;
  /** Rolls the migration under test back. */
  down(): Promise<void>;
  /** Runs every migration still pending. */
  latest(): Promise<void>;
  drop(): Promise<void>;
};

const nameOf = (entry: unknown) =>
  typeof entry === 'string' ? entry : ((entry as { file?: string; name?: string }).file ?? (entry as { name: string }).name);

export async function databaseBefore(migration: string): Promise<MigrationDatabase> {
  const { db, schema, drop } = await openTestSchema();
  const config: Knex.MigratorConfig = { migrationSource, schemaName: schema };
  const list = async () => (await db.migrate.list(config)) as [unknown[], unknown[]];
  const pending = async () => (await list())[1].map(nameOf);
  await db.raw('CREATE SCHEMA ??', [schema]);
  for (let next = await pending(); next[0] !== migration; next = await pending()) {
    if (next.length === 0) throw new Error(`no migration ${migration}`);
    await db.migrate.up(config);
  }
  return {
    db,
    schema,
    pending,
    completed: async () => (await list())[0].map(nameOf),
    up: async () => void (await db.migrate.up(config)),
    down: async () => void (await db.migrate.down({ ...config, name: migration } as Knex.MigratorConfig)),
    latest: async () => void (await db.migrate.latest(config)),
    drop,
  };
}
