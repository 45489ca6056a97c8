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
    pool: {
      min: 0,
      max: poolMax,
      // rawQuery's prepared statements belong to the database session. The embedded database is
      // one session for every connection made to it, so a new connection would find the previous
      // one's statements there and fail to prepare its own: start each connection with none.
      afterCreate: (connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void) => {
        connection.query('DEALLOCATE ALL').then(
          () => done(null, connection),
          (error: Error) => done(error, connection),
        );
      },
    },
  });
}

/** The schema `createDb` was given, for code that must name it (the session store). */
export function schemaOf(db: Db): string | undefined {
  const searchPath: unknown = db.client.config.searchPath;
  return Array.isArray(searchPath) ? searchPath[0] : typeof searchPath === 'string' ? searchPath : undefined;
}

/**
 * One statement straight on a connection of `db`'s pool (same connections, same search_path),
 * without knex's query building and bookkeeping, and prepared once per connection, so PostgreSQL
 * parses and plans it once instead of on every call (less than half the database's work for such
 * small reads): for the few queries every signed-in request makes (the session read, the profile).
 * `text` uses PostgreSQL's own `$1` placeholders and must be a constant: each distinct text stays
 * prepared on every connection.
 */
export async function rawQuery<Row>(db: Db, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as pg.ClientBase;
  try {
    return (await connection.query<Row & pg.QueryResultRow>({ name: statementName(text), text, values })).rows;
  } finally {
    void db.client.releaseConnection(connection);
  }
}

const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `portal_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

export async function migrate(db: Db, schema?: string): Promise<void> {
  if (schema) await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  await db.migrate.latest({ migrationSource, schemaName: schema });
}
