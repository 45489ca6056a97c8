import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage, type FileStorage } from '../../lib/storage';
import { createS3Storage } from '../../lib/storage-s3';
import { startTestS3, type TestS3 } from '../../lib/storage-test-support';
import { partialBytesOf, type PartialBytes } from './partial-bytes';

/** The bytes of unfinished uploads (issue 16), the same contract in a local folder and in a bucket (s3rver). */
const dataDir = mkdtempSync(path.join(tmpdir(), 'partial-bytes-'));
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const backends: [string, () => FileStorage][] = [
  ['a local folder', () => createFileStorage(path.join(dataDir, 'local'))],
  ['a bucket', () => createS3Storage({ ...s3.settings, dataDir: path.join(dataDir, 's3') })],
];
const newId = () => randomBytes(16).toString('hex');

describe.each(backends)('partial upload bytes in %s', (_name, create) => {
  let storage: FileStorage;
  let partial: PartialBytes;
  beforeAll(() => {
    storage = create();
    partial = partialBytesOf(storage);
  });

  it('has none for an upload never made, and an empty start for a new one', async () => {
    const id = newId();
    expect(await partial.offsetOf(id)).toBeUndefined();
    await (await partial.create(id)).close();
    expect(await partial.offsetOf(id)).toBe(0);
  });

  it('keeps the writes of several requests in order and hands them back as one file', async () => {
    const id = newId();
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    // The creating request writes the first part in two writes, another the rest.
    const first = await partial.create(id);
    await first.write([bytes.subarray(0, 1000), bytes.subarray(1000, 1024 * 1024)], 0);
    await first.write([bytes.subarray(1024 * 1024, 2 * 1024 * 1024)], 1024 * 1024);
    await first.close();
    expect(await partial.offsetOf(id)).toBe(2 * 1024 * 1024);
    const second = await partial.open(id);
    await second.write([bytes.subarray(2 * 1024 * 1024)], 2 * 1024 * 1024);
    await second.close();
    expect(await partial.offsetOf(id)).toBe(bytes.length);

    // Where the store's adopt takes it from, whole.
    const local = await partial.local(id);
    expect(local.path.startsWith(storage.incomingDir + path.sep)).toBe(true);
    expect(readFileSync(local.path).equals(bytes)).toBe(true);
    await local.release();
    expect(await partial.offsetOf(id)).toBe(bytes.length);
    expect(await partial.ids()).toContain(id);
    await partial.remove(id);
    expect(await partial.offsetOf(id)).toBeUndefined();
    expect(await partial.ids()).not.toContain(id);
  });

  it('stays at the end of its last whole write when a process dies mid-write', async () => {
    const id = newId();
    const writer = await partial.create(id);
    await writer.write([Buffer.alloc(4096, 1)], 0);
    await writer.close();
    // What a dying process can leave: in a folder, nothing (a write is in place); in a bucket, an
    // object that never completed is not there, and one at a position that was never reached is ignored.
    if (storage.backend === 's3') await storage.writeFile(`partial/${id}-${String(9000).padStart(15, '0')}`, Buffer.alloc(10));
    expect(await partial.offsetOf(id)).toBe(4096);
    await partial.remove(id);
  });

  it('is gone after remove, which may be called again', async () => {
    const id = newId();
    const writer = await partial.create(id);
    await writer.write([Buffer.from('some bytes')], 0);
    await writer.close();
    await partial.remove(id);
    await partial.remove(id);
    expect(await partial.offsetOf(id)).toBeUndefined();
  });
});
