import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp } from '../../tests/support/app';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';
import { createLogger } from '../lib/logger';
import { createFileStorage, type FileStorage } from '../lib/storage';
import { createUploadService } from './service';

/**
 * Moving a file into the store takes seconds on a bucket for a large image. It happens before the
 * transaction that records the images, so while it runs neither her upload lock nor a database
 * connection is held: her other requests and everyone else's go on.
 */
let app: TestApp;
let seed: MinimalSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
});
afterAll(() => app?.close());

describe('storing an upload', () => {
  it('holds neither her lock nor a connection while the files move into the store', async () => {
    const local = createFileStorage(app.config.dataDir);
    let letGo!: () => void;
    const moving = new Promise<void>((resolve) => (letGo = resolve));
    let started!: () => void;
    const adoptStarted = new Promise<void>((resolve) => (started = resolve));
    // A store whose moves take as long as the test wants, as a bucket's do.
    const slow: FileStorage = {
      ...local,
      adopt: async (incomingPath, key) => {
        started();
        await moving;
        await local.adopt(incomingPath, key);
      },
    };
    const logger = createLogger(app.config, { write: () => undefined });
    const uploads = createUploadService({ db: app.db, storage: slow, config: app.config, clock: () => Date.now(), logger });
    const [image] = synthesizeScreeningStudy({
      patient: { firstName: 'Anna', lastName: 'Testowa', birthAt: '1968-04-12', patientId: 'P-SLOW' },
      examinedAt: new Date('2024-03-01T09:30:00Z'),
      accessionNumber: 'ACC-SLOW',
    });
    const incoming = path.join(local.incomingDir, 'slow-move');
    mkdirSync(incoming, { recursive: true });
    const file = path.join(incoming, 'image.dcm');
    writeFileSync(file, image!.bytes);
    const userId = (await app.db('users').where('email', seed.patient.login).first('id')).id;
    const uploader = await uploads.uploaderOf(userId, '10.0.0.1');

    const storing = uploads.store(uploader, [{ path: file, size: image!.bytes.length, clientName: 'image.dcm' }]);
    await adoptStarted;
    // Her row can be locked by someone else meanwhile, at once.
    const locked = app.db.transaction((trx) => trx.raw('SELECT id FROM users WHERE id = ? FOR UPDATE NOWAIT', [userId]));
    const answer = await Promise.race([locked.then(() => 'locked'), new Promise((resolve) => setTimeout(() => resolve('waited'), 3000))]);
    letGo();
    expect(answer).toBe('locked');
    expect(await storing).toEqual({ stored: 1, duplicates: 0, refused: [] });
  });
});
