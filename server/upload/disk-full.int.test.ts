import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { seedMinimal, startTestApp, type TestApp, type TestClient } from '../../tests/support/app';
import { createUpload, patchUpload, syntheticMammogram } from './resumable/resumable-test-support';
import { filesUnder, postDicoms } from './upload-test-support';

/**
 * The disk that holds the uploads fills up (issue 16: it answered 500 INTERNAL). Writes of files
 * being received (a multipart request's, the resumable store's) fail with ENOSPC, as Linux's
 * would, while `disk.full` is set.
 */
const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    if (!String(args[0]).includes(`${path.sep}incoming${path.sep}`)) return handle;
    const writev = handle.writev.bind(handle);
    handle.writev = ((...writeArgs: Parameters<typeof writev>) =>
      disk.full
        ? Promise.reject(
            Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }),
          )
        : writev(...writeArgs)) as typeof handle.writev;
    return handle;
  };
  return { ...fs, open, default: { ...fs, open } };
});

let app: TestApp;
let patient: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  const seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});
afterAll(() => app?.close());

it('answers 507 STORAGE_FULL, keeps no reservation, and stores the same file once there is room again', async () => {
  const image = syntheticMammogram('disk-full', 1);
  disk.full = true;
  const refused = await createUpload(patient, app.baseUrl, image.bytes.length, 'full.dcm', { body: image.bytes });
  disk.full = false;
  expect(refused.status).toBe(507);
  expect(refused.body).toEqual({ code: 'STORAGE_FULL' });
  expect(await app.db('resumable_uploads').whereNull('outcome').count({ n: '*' }).first()).toEqual({ n: 0 });

  const stored = await createUpload(patient, app.baseUrl, image.bytes.length, 'full.dcm', { body: image.bytes });
  expect(stored.status).toBe(201);
  expect(stored.headers.get('upload-outcome')).toBe('stored');
  const logged = app.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(logged.filter((line) => line.msg === 'storage full')).toHaveLength(1);
  expect(logged.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

it('answers a PATCH 507 STORAGE_FULL too, and the upload goes on from what was stored once there is room', async () => {
  const image = syntheticMammogram('disk-full-patch', 1);
  const half = Math.floor(image.bytes.length / 2);
  const created = await createUpload(patient, app.baseUrl, image.bytes.length, 'half.dcm', { body: image.bytes.subarray(0, half) });
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  disk.full = true;
  const refused = await patchUpload(patient, app.baseUrl, location, half, image.bytes.subarray(half));
  disk.full = false;
  expect(refused.status).toBe(507);
  expect(refused.body).toEqual({ code: 'STORAGE_FULL' });
  const rest = await patchUpload(patient, app.baseUrl, location, half, image.bytes.subarray(half));
  expect(rest.status).toBe(204);
  expect(rest.headers.get('upload-outcome')).toBe('stored');
});

it('answers a multipart upload 507 STORAGE_FULL, keeps none of its files, and stores them once there is room', async () => {
  const images = [1, 2, 3].map((n) => ({ name: `full-${n}.dcm`, bytes: syntheticMammogram(`disk-full-multipart-${n}`, 1).bytes }));
  const incoming = path.join(app.config.dataDir, 'storage', 'incoming');
  const before = await app.db('dicom_instances').count({ n: '*' }).first();
  disk.full = true;
  const refused = await postDicoms(patient, app.baseUrl, images);
  disk.full = false;
  expect(refused.status).toBe(507);
  expect(refused.body).toEqual({ code: 'STORAGE_FULL' });
  expect(await app.db('dicom_instances').count({ n: '*' }).first()).toEqual(before);
  expect(filesUnder(incoming).filter((file) => !file.startsWith('resumable'))).toEqual([]);

  const stored = await postDicoms(patient, app.baseUrl, images);
  expect(stored.status).toBe(200);
  expect(stored.body).toEqual({ stored: 3, duplicates: 0, refused: [] });
});
