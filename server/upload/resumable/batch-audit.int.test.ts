import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../../tests/support/app';
import { addressSource, auditEntries } from '../../../tests/support/ownership';
import { createFileStorage } from '../../lib/storage';
import { corpusFile } from '../upload-test-support';
import { reportQuietBatches } from './batch-audit';
import { sweepResumableUploads } from './expiry';
import { createUpload, metadataHeader, tusRequest } from './resumable-test-support';

let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;
const nextAddress = addressSource('10.58.0');
const HOUR_MS = 60 * 60 * 1000;

/** One whole file in one request, as a file of the pick `batch`. */
async function uploadInBatch(name: string, bytes: Buffer, batch: string, headers: Record<string, string>) {
  const response = await createUpload(patient, app.baseUrl, bytes.length, name, {
    body: bytes,
    headers: { ...headers, 'upload-metadata': metadataHeader({ name, batch }) },
  });
  expect(response.status).toBe(201);
  return response.headers.get('upload-outcome');
}

beforeAll(async () => {
  app = await startTestApp();
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('one audit entry per pick, not per file', () => {
  it('writes the entry of a pick when the client reports it, once', async () => {
    const { ip, headers } = nextAddress();
    const batch = randomUUID();
    expect(await uploadInBatch('a/CT_small.dcm', corpusFile('CT_small.dcm').bytes, batch, headers)).toBe('stored');
    expect(await uploadInBatch('a/MR_small.dcm', corpusFile('MR_small.dcm').bytes, batch, headers)).toBe('stored');
    expect(await uploadInBatch('a/notes.txt', Buffer.alloc(300, 65), batch, headers)).toBe('refused');
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([]);

    const report = await tusRequest(patient, app.baseUrl, 'POST', `/api/dicom/uploads/batches/${batch}/report`, { headers });
    expect(report.status).toBe(204);
    const again = await tusRequest(patient, app.baseUrl, 'POST', `/api/dicom/uploads/batches/${batch}/report`, { headers });
    expect(again.status).toBe(204);
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'stored 2, duplicates 0, refused 1' },
    ]);
  });

  it('writes the entry of a pick nobody reported once it has been quiet for a minute', async () => {
    const { ip, headers } = nextAddress();
    const batch = randomUUID();
    expect(await uploadInBatch('b/CT_small.dcm', corpusFile('CT_small.dcm').bytes, batch, headers)).toBe('duplicate');

    expect(await reportQuietBatches(app.db, new Date(app.clock.now() + 10_000))).toBe(0);
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([]);
    expect(await reportQuietBatches(app.db, new Date(app.clock.now() + 61_000))).toBeGreaterThanOrEqual(1);
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'stored 0, duplicates 1, refused 0' },
    ]);
  });

  it('writes the entry of a quiet pick before the sweep removes its uploads', async () => {
    const { ip, headers } = nextAddress();
    const batch = randomUUID();
    await uploadInBatch('c/notes.txt', Buffer.alloc(200, 66), batch, headers);
    const logger = { info: () => undefined, warn: () => undefined } as never;
    const sweep = () =>
      sweepResumableUploads(
        { db: app.db, storage: createFileStorage(app.config.dataDir), logger },
        new Date(app.clock.now() + 100 * HOUR_MS),
      );

    await sweep();
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([
      { user_id: seed.patient.userId, screening_id: null, description: 'stored 0, duplicates 0, refused 1' },
    ]);
    expect(Number((await app.db('resumable_uploads').where({ batch }).count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it('refuses a batch name that is not a UUID, and a report without the CSRF token', async () => {
    const { headers } = nextAddress();
    expect((await tusRequest(patient, app.baseUrl, 'POST', '/api/dicom/uploads/batches/..%2Fx/report', { headers })).status).toBe(400);
    const withoutCsrf = await tusRequest(patient, app.baseUrl, 'POST', `/api/dicom/uploads/batches/${randomUUID()}/report`, {
      headers,
      withoutCsrf: true,
    });
    expect(withoutCsrf.status).toBe(403);
  });
});
