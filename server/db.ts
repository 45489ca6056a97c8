import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from '../db/migrations';

// DATE columns are calendar days (birth dates): keep them as 'YYYY-MM-DD' strings, never shift
// them through a JavaScript Date in the server's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
// COUNT(*) and bigint ids stay far below 2^53 here; numbers are what the API speaks.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => Number(value));

export type Db = Knex;

export type DatabaseOptions = {
  url: string;
  /** Schema for every table; tests give each file a fresh one. Default: PostgreSQL's `public`. */
  schema?: string;
  poolMax?: number;
};

export function createDb({ url, schema, poolMax = 10 }: DatabaseOptions): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url },
    // Set on every new connection by knex itself; PGlite ignores startup `options`.
    ...(schema ? { searchPath: [schema] } : {}),
    pool: { min: 0, max: poolMax },
  });
}

/** The schema `createDb` was given, for code that must name it (the session store). */
export function schemaOf(db: Db): string | undefined {
  const searchPath: unknown = db.client.config.searchPath;
  return Array.isArray(searchPath) ? searchPath[0] : typeof searchPath === 'string' ? searchPath : undefined;
}

export async function migrate(db: Db, schema?: string): Promise<void> {
  if (schema) await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  await db.migrate.latest({ migrationSource, schemaName: schema });
}
