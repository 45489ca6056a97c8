import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { EmbeddedDatabase } from '../../db/embedded';
import { createDb, migrate, type Db } from '../../server/db';
import { startTestEmbeddedDatabase } from './embedded-template';

export type TestDatabase = {
  db: Db;
  schema: string;
  /** Drops the schema and closes the pool (and the file's own PGlite). Call in afterAll. */
  drop(): Promise<void>;
};

/**
 * A fresh, migrated schema for one test file.
 *
 * On PostgreSQL every file shares the run's server and takes its own schema. PGlite is a single
 * PostgreSQL session behind its socket, so `search_path` set by one connection applies to all of
 * them: files sharing one PGlite would read each other's tables. There each file starts its own
 * in-memory PGlite instead (and still uses a schema of its own, to keep one code path).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await openTestSchema();
  await migrate(database.db, database.schema);
  return database;
}

/** A schema name and a pool on the run's database (see createTestDatabase), nothing in it yet. */
export async function openTestSchema(): Promise<TestDatabase> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  let embedded: EmbeddedDatabase | undefined;
  let url = inject('databaseUrl');
  if (inject('databaseKind') === 'pglite') {
    embedded = await startTestEmbeddedDatabase();
    url = embedded.url;
  }
  const db = createDb({ url, schema, poolMax: embedded?.poolMax ?? 4 });
  return {
    db,
    schema,
    async drop() {
      try {
        await dropSchema(db, schema);
      } finally {
        await db.destroy();
        await embedded?.stop();
      }
    },
  };
}

/**
 * Dropping a schema locks every object in it, and other test files create and drop theirs at the
 * same time on the same server: PostgreSQL may pick this DROP as a deadlock victim. It is retried.
 */
async function dropSchema(db: Db, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      return;
    } catch (error) {
      const deadlock = (error as { code?: string }).code === '40P01';
      if (!deadlock || attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
