import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../db/embedded';

const pglitePackage = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
const pgliteVersion: string = JSON.parse(readFileSync(pglitePackage, 'utf8')).version;
const templateFile = path.join(tmpdir(), 'portal-tests', `pglite-${pgliteVersion}-empty.tar`);

/**
 * An in-memory PGlite for one test file, served like db/embedded.ts serves it. A fresh PGlite
 * runs initdb (about 2 s, far more with files starting in parallel); starting from a dump of an
 * empty cluster takes a tenth of that. The dump is made once per PGlite version and kept in the
 * temp directory; written under a temporary name and renamed, so parallel files never read half
 * of one.
 */
export async function startTestEmbeddedDatabase(): Promise<EmbeddedDatabase> {
  return startEmbeddedDatabase({ loadDataDir: await emptyClusterDump() });
}

async function emptyClusterDump(): Promise<Blob> {
  if (!existsSync(templateFile)) {
    const fresh = await PGlite.create();
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    mkdirSync(path.dirname(templateFile), { recursive: true });
    const partial = `${templateFile}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, templateFile);
  }
  return new Blob([readFileSync(templateFile)]);
}
