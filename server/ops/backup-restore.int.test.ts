import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { ImageSetsResponse } from '../../common/types/images';
import { seedMinimal, startTestApp, TestClient, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { createApp } from '../app';
import { createDb, schemaOf } from '../db';
import { createLogger } from '../lib/logger';
import { cookieHeader, corpusFile, postDicoms } from '../upload/upload-test-support';

// The backup and restore of README "Running in production", tried: pg_dump of the database and a
// copy of DATA_DIR/storage, restored into a new database and a new folder, served by a new portal.
// PostgreSQL only: the embedded PGlite is a newer server than the Debian pg_dump reads, and
// production runs on PostgreSQL.

const run = promisify(execFile);
const onPostgres = inject('databaseKind') !== 'pglite';

describe.runIf(onPostgres)('a backup restored into a new database and folder', () => {
  let app: TestApp;
  let seed: MinimalSeed;
  let work: string;
  const restoredName = `restore_${randomBytes(6).toString('hex')}`;
  const serverUrl = inject('databaseUrl');
  const restoredUrl = () => {
    const url = new URL(serverUrl);
    url.pathname = `/${restoredName}`;
    return url.toString();
  };

  beforeAll(async () => {
    app = await startTestApp();
    seed = await seedMinimal(app.db, app.config);
    work = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
  });
  afterAll(async () => {
    await app?.close();
    await run('psql', [serverUrl, '-c', `DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`]).catch(() => undefined);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('gives the patient back her sign-in, her screenings and her uploaded images, byte for byte', async () => {
    const patient = app.client();
    await patient.loginPortal(seed.patient.login, seed.patient.password);
    expect((await postDicoms(patient, app.baseUrl, [corpusFile('CT_small.dcm')])).body.stored).toBe(1);
    const screeningsBefore = (await patient.get('/api/screening')).body;
    const imagesBefore = (await patient.get('/api/images')).body as ImageSetsResponse;
    const imageId = imagesBefore.sets.flatMap((set) => set.images)[0]!.id;
    const bytesBefore = await (
      await fetch(`${app.baseUrl}/api/images/${imageId}`, { headers: { cookie: cookieHeader(patient) } })
    ).arrayBuffer();

    // Back up: the database (its schema here; the whole database in production) and the files.
    const schema = schemaOf(app.db)!;
    const dump = path.join(work, 'portal.dump');
    await run('pg_dump', ['--format=custom', '--no-owner', `--schema=${schema}`, `--file=${dump}`, serverUrl]);
    await cp(path.join(app.config.dataDir, 'storage'), path.join(work, 'storage-backup'), { recursive: true });

    // Restore into a database and a DATA_DIR that never saw the portal.
    await run('psql', [serverUrl, '-c', `CREATE DATABASE ${restoredName}`]);
    await run('pg_restore', ['--no-owner', `--dbname=${restoredUrl()}`, dump]);
    const restoredDataDir = path.join(work, 'restored-data');
    await cp(path.join(work, 'storage-backup'), path.join(restoredDataDir, 'storage'), { recursive: true });

    const db = createDb({ url: restoredUrl(), schema });
    const config = { ...app.config, dataDir: restoredDataDir };
    const restored = createApp({ config, db, logger: createLogger({ logLevel: 'silent' }), clock: app.clock.now });
    const server = restored.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const again = new TestClient(baseUrl);
      expect((await again.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
      expect((await again.get('/api/screening')).body).toEqual(screeningsBefore);
      expect((await again.get('/api/images')).body).toEqual(imagesBefore);
      const bytesAfter = await (
        await fetch(`${baseUrl}/api/images/${imageId}`, { headers: { cookie: cookieHeader(again) } })
      ).arrayBuffer();
      expect(Buffer.from(bytesAfter).equals(Buffer.from(bytesBefore))).toBe(true);
      // The result portal's access code still opens its screening: its HMAC key came along in the settings.
      expect((await new TestClient(baseUrl).loginResult(seed.guest.accessCode, seed.guest.birthAt)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await restored.close();
      await db.destroy();
    }
  });
});
