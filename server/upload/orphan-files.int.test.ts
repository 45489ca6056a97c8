import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type TestApp, type TestClient } from '../../tests/support/app';
import { schemaOf } from '../db';
import { createFileStorage, UNNAMED_AFTER_MS, type LocalFileStorage } from '../lib/storage';
import { removeOrphanImageFiles } from './orphan-files';
import { corpusFile, postDicoms } from './upload-test-support';

/**
 * Image files a crash left between the rename into the store and the commit of their row (issue
 * 16, crash debris): deleted once settled for an hour, never a file a row names, never one just
 * renamed into place.
 */
let app: TestApp;
let storage: LocalFileStorage;
let patient: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  storage = createFileStorage(app.config.dataDir);
  const seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});
afterAll(() => app?.close());

it('removes files no row names once an hour has passed, and keeps every stored image', async () => {
  expect((await postDicoms(patient, app.baseUrl, [corpusFile('CT_small.dcm')])).body).toMatchObject({ stored: 1 });
  const storedKeys = await app.db('dicom_instances').pluck('storage_key');
  expect(storedKeys.length).toBeGreaterThan(0);
  const orphan = storage.newKey('dicom', '.dcm');
  const unfinished = storage.newKey('dicom', '.dcm');
  writeFileSync(storage.pathOf(orphan), 'an image whose row was never committed');
  writeFileSync(storage.partPathOf(unfinished), 'half an image');

  // Within the hour nothing goes: the commit of a file renamed a moment ago may still be running.
  expect(await removeOrphanImageFiles({ db: app.db, storage }, Date.now())).toBe(0);
  expect(existsSync(storage.pathOf(orphan))).toBe(true);

  expect(await removeOrphanImageFiles({ db: app.db, storage }, Date.now() + UNNAMED_AFTER_MS + 60_000)).toBe(2);
  expect(existsSync(storage.pathOf(orphan))).toBe(false);
  expect(existsSync(storage.partPathOf(unfinished))).toBe(false);
  for (const key of storedKeys) expect(existsSync(storage.pathOf(key)), key).toBe(true);
  expect((await patient.get('/api/dicom')).body.studies).toHaveLength(1);
});

it('runs hourly as a job of the shared queue', async () => {
  const queues = () => app.db.withSchema(schemaOf(app.db)!).from('queue').pluck('name');
  const deadline = Date.now() + 10_000;
  while (!(await queues()).includes('orphan-image-sweep') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await queues()).toContain('orphan-image-sweep');
});
