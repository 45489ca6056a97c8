import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type EmbeddedDatabase = {
  /** A `postgres://` URL for the `pg` driver, so the app has one code path for both databases. */
  url: string;
  stop(): Promise<void>;
};

/**
 * Starts PGlite (a real PostgreSQL compiled to WebAssembly) and serves it over the PostgreSQL wire
 * protocol on an ephemeral loopback port. Port 0 because 5432 is usually held by a real server.
 * `dataDir` undefined keeps the database in memory (tests).
 */
export async function startEmbeddedDatabase(dataDir?: string): Promise<EmbeddedDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  // Several connections so a pool, the session store and the job queue can each hold one;
  // the socket server runs their statements one at a time and keeps transactions apart.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
