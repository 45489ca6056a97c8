import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../db/embedded';
import type { Config } from '../config';
import { createDb, migrate, type Db } from '../db';
import { CommandError } from './command';

export type CliDatabase = { db: Db; close(): Promise<void> };

/**
 * The portal's own database, opened as server/main.ts opens it: DATABASE_URL, or the embedded
 * PGlite under DATA_DIR, migrated to the same list. PGlite takes no lock of its own: a second
 * process would open the same files beside the running portal and damage them, so the command
 * line refuses while another process holds them.
 */
export async function openCliDatabase(config: Config): Promise<CliDatabase> {
  if (config.databaseUrl) {
    const db = createDb({ url: config.databaseUrl });
    try {
      await migrate(db);
    } catch (error) {
      await db.destroy();
      throw new CommandError(`cannot use the database of DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { db, close: () => db.destroy() };
  }

  const pgliteDir = path.join(config.dataDir, 'pglite');
  const holder = embeddedDatabaseHolder(pgliteDir);
  if (holder.inUse) {
    throw new CommandError(
      [
        `the embedded database at ${pgliteDir} is in use${holder.pid ? ` by process ${holder.pid}` : ''}, most likely the running portal.`,
        'The embedded database can be opened by one process at a time. Either stop the portal and run the command',
        'again, or run the portal and this command on PostgreSQL (set DATABASE_URL for both).',
        ...(holder.pid
          ? []
          : [`If you are sure no portal runs (it was killed), remove ${path.join(pgliteDir, 'postmaster.pid')} and try again.`]),
      ].join('\n'),
    );
  }
  let embedded: EmbeddedDatabase | undefined;
  let db: Db | undefined;
  try {
    embedded = await startEmbeddedDatabase({ dataDir: pgliteDir });
    db = createDb({ url: embedded.url, poolMax: embedded.poolMax });
    await migrate(db);
  } catch (error) {
    await db?.destroy();
    await embedded?.stop();
    throw new CommandError(`cannot open the embedded database at ${pgliteDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const opened = { db, embedded };
  return {
    db,
    async close() {
      await opened.db.destroy();
      await opened.embedded.stop();
    },
  };
}

/**
 * Whether another process has the embedded database open. PGlite writes `postmaster.pid` while
 * it runs and removes it when closed; the file stays behind after a crash, so where /proc exists
 * (Linux) the open files of the other processes tell a live holder from a stale file.
 */
export function embeddedDatabaseHolder(pgliteDir: string): { inUse: boolean; pid?: number } {
  if (!existsSync(path.join(pgliteDir, 'postmaster.pid'))) return { inUse: false };
  let processes: string[];
  try {
    processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return { inUse: true };
  }
  const inside = `${realpathSync(pgliteDir)}${path.sep}`;
  for (const pid of processes) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const descriptor of descriptors) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${descriptor}`);
      } catch {
        continue;
      }
      if (target.startsWith(inside)) return { inUse: true, pid: Number(pid) };
    }
  }
  return { inUse: false };
}
