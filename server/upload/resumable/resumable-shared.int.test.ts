import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../../tests/support/app';
import { cookieHeader } from '../upload-test-support';
import { OCTETS, TUS, createUpload, patchUpload, startSecondInstance, syntheticMammogram, tusRequest } from './resumable-test-support';

/**
 * One upload served by several requests at once and by two portal processes sharing the
 * database and DATA_DIR: the leases in PostgreSQL keep its bytes whole.
 */
let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;

const storedRow = (sopInstanceUid: string) =>
  app.db('dicom_instances').where({ personal_data_id: seed.patient.personalDataId, sop_instance_uid: sopInstanceUid }).first();

function expectStoredAsSent(storageKey: string, sent: Buffer): void {
  const stored = readFileSync(path.join(app.config.dataDir, 'storage', storageKey));
  expect(stored.length).toBe(sent.length);
  expect(stored.subarray(0, 128).every((byte) => byte === 0)).toBe(true);
  expect(stored.subarray(128).equals(sent.subarray(128))).toBe(true);
}

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('two portal processes', () => {
  it('serve halves of one upload, and either answers for it', async () => {
    const second = await startSecondInstance(app);
    try {
      const image = syntheticMammogram('two-processes', 2);
      const half = Math.floor(image.bytes.length / 2);
      const created = await createUpload(patient, app.baseUrl, image.bytes.length, 'two/processes.dcm', {
        body: image.bytes.subarray(0, half),
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;

      const head = await tusRequest(patient, second.baseUrl, 'HEAD', location);
      expect(head.headers.get('upload-offset')).toBe(String(half));
      const rest = await patchUpload(patient, second.baseUrl, location, half, image.bytes.subarray(half));
      expect(rest.status).toBe(204);
      expect(rest.headers.get('upload-outcome')).toBe('stored');

      expect((await patient.get(`${location}/outcome`)).body).toEqual({ outcome: 'stored' });
      expectStoredAsSent((await storedRow(image.sopInstanceUid)).storage_key, image.bytes);
    } finally {
      await second.close();
    }
  });
});

describe('two PATCHes of one upload at once', () => {
  it('refuses one of them and keeps the bytes whole', async () => {
    const image = syntheticMammogram('concurrent', 2);
    const location = (await createUpload(patient, app.baseUrl, image.bytes.length, 'concurrent.dcm')).headers.get('location')!;
    const half = Math.floor(image.bytes.length / 2);

    // The first sends half of the file, then stalls as a dead connection would.
    let stall!: ReadableStreamDefaultController<Uint8Array>;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        stall = controller;
        controller.enqueue(image.bytes.subarray(0, half));
      },
    });
    const first = fetch(`${app.baseUrl}${location}`, {
      method: 'PATCH',
      headers: { ...TUS, ...OCTETS, 'upload-offset': '0', cookie: cookieHeader(patient), 'x-csrf-token': patient.csrfToken! },
      body: stalled,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    await waitFor(async () => Number((await tusRequestNoLock(location)) ?? 0) >= half);

    // The second starts over from 0: it takes the upload over, and finds the first one's bytes.
    const second = await patchUpload(patient, app.baseUrl, location, 0, image.bytes);
    const firstAnswer = await first;
    stall.close();
    const statuses = [second.status, firstAnswer instanceof Response ? firstAnswer.status : 'cut'];
    expect([409, 423]).toContain(second.status);
    expect(second.body.code).toMatch(/^UPLOAD_(OFFSET_CONFLICT|BUSY)$/);
    expect(statuses).not.toContain(500);

    const head = await tusRequest(patient, app.baseUrl, 'HEAD', location);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);
    const last = await patchUpload(patient, app.baseUrl, location, offset, image.bytes.subarray(offset));
    expect(last.headers.get('upload-outcome')).toBe('stored');
    expectStoredAsSent((await storedRow(image.sopInstanceUid)).storage_key, image.bytes);
  });
});

describe('tus-js-client in Node', () => {
  it('uploads a file in chunks with the CSRF header and reads the outcome', async () => {
    const image = syntheticMammogram('tus-js-client', 1);
    const outcomes: (string | undefined)[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(image.bytes, {
        endpoint: `${app.baseUrl}/api/dicom/uploads`,
        chunkSize: 256 * 1024,
        uploadDataDuringCreation: true,
        metadata: { name: 'client/image.dcm' },
        headers: { cookie: cookieHeader(patient), 'X-CSRF-Token': patient.csrfToken! },
        retryDelays: [],
        onAfterResponse: (_req, res) => {
          const outcome = res.getHeader('Upload-Outcome');
          if (outcome) outcomes.push(outcome);
        },
        onSuccess: () => resolve(upload.url!),
        onError: reject,
      });
      upload.start();
    });
    expect(url).toMatch(/\/api\/dicom\/uploads\/[0-9a-f]{32}$/);
    expect(outcomes).toEqual(['stored']);
    expectStoredAsSent((await storedRow(image.sopInstanceUid)).storage_key, image.bytes);
  });
});

/** The offset as the file on disk shows it, without taking the upload's lease (a HEAD would ask the PATCH to let go). */
async function tusRequestNoLock(location: string): Promise<number | undefined> {
  const { statSync } = await import('node:fs');
  try {
    return statSync(path.join(app.config.dataDir, 'storage', 'incoming', 'resumable', location.split('/').pop()!)).size;
  } catch {
    return undefined;
  }
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
