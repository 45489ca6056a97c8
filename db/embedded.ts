import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type EmbeddedDatabase = {
  /** A `postgres://` URL for the `pg` driver, so the app has one code path for both databases. */
  url: string;
  /** How many connections a pool may open to it: one (see below). */
  poolMax: number;
  stop(): Promise<void>;
};

export type EmbeddedOptions = {
  /** Where the cluster lives on disk; absent keeps it in memory (tests). */
  dataDir?: string;
  /** A dump (`dumpDataDir`) to start from instead of running initdb. */
  loadDataDir?: Blob;
};

/**
 * Starts PGlite (a real PostgreSQL compiled to WebAssembly) and serves it over the PostgreSQL wire
 * protocol on an ephemeral loopback port (5432 is usually held by a real server).
 *
 * ONE connection only. PGlite is a single PostgreSQL session, and pglite-socket 0.2 keeps the
 * connections apart only inside transactions: the Parse/Bind/Execute messages of two concurrent
 * parameterized queries interleave in that session, and one query then runs with the other's
 * statement or parameters (seen here as "portal does not exist" and timestamps read as numbers).
 * PGlite runs one statement at a time anyway, so a single pooled connection costs no throughput;
 * the server refuses a second connection rather than let it corrupt the first.
 */
export async function startEmbeddedDatabase({ dataDir, loadDataDir }: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    poolMax: 1,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
