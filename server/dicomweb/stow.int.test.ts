import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { insertPerson, insertScreening } from '../../tests/support/seed-minimal';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';
import { createFileStorage, type FileStorage } from '../lib/storage';
import { createS3Storage } from '../lib/storage-s3';
import { startTestS3 } from '../lib/storage-test-support';
import type { ReceivedPart } from './receive';
import { storeInstances } from './stow';

const ACCESSION = 'ACC-PLACE-1';
const PROCESSING_FAILURE = 0x0110;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  const personId = await insertPerson(app.db, { firstName: 'Anna', lastName: 'Wielu', birthAt: '1970-05-06' });
  const screeningId = await insertScreening(app.db, app.config, personId, { accessCode: 'Place1cd', examinedAt: '2025-07-01T08:00:00Z' });
  await app.db('screenings').where('id', screeningId).update({ accession_number: ACCESSION });
});

afterAll(() => app?.close());

/** The instances of screening studies of these days, as the receiver leaves them under the incoming folder. */
async function receivedParts(storage: FileStorage, days: number[]): Promise<{ parts: ReceivedPart[]; sopInstanceUids: string[] }> {
  const images = days.flatMap((day) =>
    synthesizeScreeningStudy({
      patient: { firstName: 'Anna', lastName: 'Wielu', birthAt: '1970-05-06', patientId: 'RIS-PLACE' },
      examinedAt: new Date(`2025-07-0${day}T08:00:00Z`),
      accessionNumber: ACCESSION,
    }),
  );
  const directory = path.join(storage.incomingDir, `stow-place-test-${days.join('-')}`);
  await mkdir(directory, { recursive: true });
  const parts = await Promise.all(
    images.map(async ({ bytes }, index) => {
      const partPath = path.join(directory, `${index}.dcm`);
      await writeFile(partPath, bytes);
      const head = Buffer.from(bytes.subarray(0, 64 * 1024));
      return { index, contentType: 'application/dicom', path: partPath, size: bytes.length, head };
    }),
  );
  return { parts, sopInstanceUids: images.map((image) => image.sopInstanceUid) };
}

describe('storeInstances', () => {
  it('moves the files into the store several at a time, and one the store refuses fails alone', async () => {
    const local = createFileStorage(app.config.dataDir);
    const { parts, sopInstanceUids } = await receivedParts(local, [1, 2, 3, 4, 5]);
    const refused = parts[7]!;
    let moving = 0;
    let mostAtOnce = 0;
    const storage: FileStorage = {
      ...local,
      adopt: async (incomingPath, key) => {
        mostAtOnce = Math.max(mostAtOnce, ++moving);
        try {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (incomingPath === refused.path) throw new Error('the bucket is unavailable');
          await local.adopt(incomingPath, key);
        } finally {
          moving -= 1;
        }
      },
    };

    const outcome = await storeInstances({ db: app.db, storage, logger: pino({ level: 'silent' }) }, { apiKeyId: null }, parts, (at) => at);

    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(16);
    expect(outcome.status).toBe(202);
    const failed = (outcome.body['00081198']?.Value ?? []) as Record<string, { Value?: unknown[] }>[];
    expect(failed.map((item) => item['00081197']?.Value?.[0])).toEqual([PROCESSING_FAILURE]);
    const rows = await app.db('dicom_instances').whereIn('sop_instance_uid', sopInstanceUids);
    expect(rows.map((row) => row.sop_instance_uid).sort()).toEqual(sopInstanceUids.filter((_, index) => index !== 7).sort());
    for (const row of rows) expect(existsSync(local.pathOf(row.storage_key))).toBe(true);
    expect(existsSync(refused.path)).toBe(true);
  });

  it('stores them in a bucket as they were sent, leaving nothing in the incoming folder', async () => {
    const s3 = await startTestS3();
    try {
      const bucket = createS3Storage({ ...s3.settings, dataDir: app.config.dataDir });
      const { parts, sopInstanceUids } = await receivedParts(bucket, [6, 7, 8]);
      const sent = await Promise.all(parts.map((part) => readFile(part.path)));

      const outcome = await storeInstances(
        { db: app.db, storage: bucket, logger: pino({ level: 'silent' }) },
        { apiKeyId: null },
        parts,
        (at) => at,
      );

      expect(outcome.status).toBe(200);
      for (const [index, uid] of sopInstanceUids.entries()) {
        const row = await app.db('dicom_instances').where('sop_instance_uid', uid).first('storage_key');
        expect(Buffer.concat(await (await bucket.openRead(row.storage_key)).toArray()).equals(sent[index]!)).toBe(true);
        expect(existsSync(parts[index]!.path)).toBe(false);
      }
    } finally {
      await s3.close();
    }
  });
});
