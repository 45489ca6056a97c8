import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/config';
import { createFileStorage } from '../../server/lib/storage';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { dcmftestAccepts } from '../../tests/support/iso-checks';
import { seedDemoData } from './demo';
import { ANNA, KATARZYNA } from './demo-people';

let database: TestDatabase;
let config: Config;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'demo-dicom-'));
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'demo-dicom-test-session-secret-0123456789',
    ACCESS_CODE_SECRET: 'demo-dicom-test-access-code-secret-01234',
  });
  database = await createTestDatabase();
  await seedDemoData(database.db, config);
});

afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('demo mammograms', () => {
  it("give the result-portal screening and each of Anna's four MG images stored under DATA_DIR", async () => {
    const rows = await database
      .db('dicom_instances as d')
      .join('personal_data as p', 'p.id', 'd.personal_data_id')
      .select('p.pesel', 'd.screening_id', 'd.storage_key', 'd.size_bytes', 'd.sop_class_uid', 'd.modality');
    const perScreening = new Map<number, number>();
    for (const row of rows) perScreening.set(row.screening_id, (perScreening.get(row.screening_id) ?? 0) + 1);
    expect(perScreening.size).toBe(KATARZYNA.screenings.length + ANNA.screenings.length);
    expect([...perScreening.values()].every((count) => count === 4)).toBe(true);
    expect(new Set(rows.map((row) => row.pesel))).toEqual(new Set([KATARZYNA.pesel, ANNA.pesel]));

    const storage = createFileStorage(dataDir);
    for (const row of rows) {
      const file = storage.pathOf(row.storage_key);
      expect(file.startsWith(path.join(dataDir, 'storage', 'dicom'))).toBe(true);
      expect(statSync(file).size).toBe(row.size_bytes);
      expect(row).toMatchObject({ sop_class_uid: '1.2.840.10008.5.1.4.1.1.1.2', modality: 'MG' });
    }
    expect(dcmftestAccepts(readFileSync(storage.pathOf(rows[0]!.storage_key)))).toBe(true);
  });

  it('are not added twice when the seed runs again', async () => {
    const before = Number((await database.db('dicom_instances').count({ n: '*' }))[0]!.n);
    await seedDemoData(database.db, config);
    expect(Number((await database.db('dicom_instances').count({ n: '*' }))[0]!.n)).toBe(before);
  });
});
