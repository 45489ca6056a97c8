import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage, UNNAMED_AFTER_MS, type FileStorage } from './storage';
import { createS3Storage } from './storage-s3';
import { startTestS3, type TestS3 } from './storage-test-support';

/**
 * The contract of FileStorage (issue 16), run against both backends: the local folder and S3,
 * the latter through s3rver, an independent implementation of the S3 protocol.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'storage-contract-'));
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const backends: [string, () => FileStorage][] = [
  ['local', () => createFileStorage(path.join(dataDir, 'local'))],
  ['s3', () => createS3Storage({ ...s3.settings, dataDir: path.join(dataDir, 's3') })],
];

async function bytesOf(stream: Readable): Promise<Buffer> {
  return Buffer.concat(await stream.toArray());
}

/** Eight megabytes, each filled with its own byte: the only memory the streamed content takes. */
const PATTERN = Array.from({ length: 8 }, (_, index) => Buffer.alloc(1024 * 1024, index));

/** `count` megabytes of PATTERN in turn (a file never held in memory, no garbage made); `seen` hashes them. */
async function* megabytes(count: number, seen?: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  for (let index = 0; index < count; index++) {
    const chunk = PATTERN[index % PATTERN.length]!;
    seen?.update(chunk);
    yield chunk;
  }
}

/** How long `work` took and how far the process's resident memory rose above where it began. */
async function measured(work: () => Promise<void>): Promise<{ seconds: number; growthMb: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds: (performance.now() - started) / 1000, growthMb: (peak - baseline) / 1024 ** 2 };
}

describe.each(backends)('file storage, %s backend', (name, create) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = create();
  });

  it('writes a file and reads it whole, by range, by header bytes, and its size', async () => {
    const key = storage.newKey('dicom', '.dcm');
    expect(key).toMatch(/^dicom\/[0-9a-f-]{36}\.dcm$/);
    const content = Buffer.from('DICM and some more bytes of an image');
    await storage.writeFile(key, content);
    expect(await storage.sizeOf(key)).toBe(content.length);
    expect(await bytesOf(await storage.openRead(key))).toEqual(content);
    expect(await bytesOf(await storage.openRead(key, { start: 5, end: 7 }))).toEqual(Buffer.from('and'));
    expect(await storage.readBytes(key, 0, 4)).toEqual(Buffer.from('DICM'));
    // Fewer bytes at the end of the file, none beyond it.
    expect(await storage.readBytes(key, content.length - 3, 100)).toEqual(Buffer.from('age'));
    expect(await storage.readBytes(key, content.length, 100)).toEqual(Buffer.alloc(0));
  });

  it('answers a missing file: no size, a read rejected with ENOENT', async () => {
    const key = storage.newKey('iso', '.iso');
    expect(await storage.sizeOf(key)).toBeUndefined();
    await expect(storage.openRead(key)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('streams a write, and keeps nothing when the stream fails part-way', async () => {
    const key = storage.newKey('iso', '.iso', 'screening-1-');
    await storage.writeStream(key, megabytes(6));
    expect(await storage.sizeOf(key)).toBe(6 * 1024 * 1024);
    expect(await bytesOf(await storage.openRead(key, { start: 5 * 1024 * 1024 - 1, end: 5 * 1024 * 1024 }))).toEqual(Buffer.from([4, 5]));

    const broken = storage.newKey('iso', '.iso', 'screening-2-');
    async function* breaksAfterSixMegabytes() {
      yield* megabytes(6);
      throw new Error('disk went away');
    }
    await expect(storage.writeStream(broken, Readable.from(breaksAfterSixMegabytes()))).rejects.toThrow('disk went away');
    expect(await storage.sizeOf(broken)).toBeUndefined();
    await storage.removeParts('iso', 'screening-2-');
    await storage.remove(key);
  });

  it('adopts a file of the incoming area, which is gone afterwards; refuses one from elsewhere', async () => {
    mkdirSync(storage.incomingDir, { recursive: true });
    const incoming = path.join(storage.incomingDir, `upload-${name}`);
    writeFileSync(incoming, 'checked upload');
    const key = storage.newKey('dicom', '.dcm');
    await storage.adopt(incoming, key);
    expect(existsSync(incoming)).toBe(false);
    expect(await bytesOf(await storage.openRead(key))).toEqual(Buffer.from('checked upload'));
    await expect(storage.adopt(path.join(dataDir, 'elsewhere'), storage.newKey('dicom', '.dcm'))).rejects.toThrow('Not an incoming file');
  });

  it('removes a file; removing a missing one is no error', async () => {
    const key = storage.newKey('dicom', '.dcm');
    await storage.writeFile(key, Buffer.from('x'));
    await storage.remove(key);
    expect(await storage.sizeOf(key)).toBeUndefined();
    await storage.remove(key);
  });

  it('refuses a key that would leave its area', async () => {
    await expect(storage.writeFile('../local-secrets.json', Buffer.from('x'))).rejects.toThrow('Not a storage key');
    await expect(storage.sizeOf('dicom/../../x')).rejects.toThrow('Not a storage key');
  });

  it('sweeps the unnamed files of an area once settled: named and fresh ones stay, other areas are left alone', async () => {
    const named = storage.newKey('dicom', '.dcm');
    const unnamed = storage.newKey('dicom', '.dcm');
    const otherArea = storage.newKey('iso', '.iso');
    for (const key of [named, unnamed, otherArea]) await storage.writeFile(key, Buffer.from(key));
    const rows = new Set([named]);
    const lookUp = async (keys: string[]) => new Set(keys.filter((key) => rows.has(key)));

    const later = Date.now() + UNNAMED_AFTER_MS + 60_000;
    expect(await storage.removeUnnamed('dicom', lookUp, later)).toBeGreaterThanOrEqual(1);
    expect(await storage.sizeOf(unnamed)).toBeUndefined();
    expect(await storage.sizeOf(named)).toBeDefined();
    expect(await storage.sizeOf(otherArea)).toBeDefined();

    const fresh = storage.newKey('dicom', '.dcm');
    await storage.writeFile(fresh, Buffer.from('just adopted, its row still committing'));
    expect(await storage.removeUnnamed('dicom', lookUp, Date.now())).toBe(0);
    expect(await storage.sizeOf(fresh)).toBeDefined();
  });

  it('lists the files of an area by prefix in key order, with their sizes, and nothing unfinished', async () => {
    const prefix = `${randomUUID().replaceAll('-', '')}-`;
    const keys = ['000000002048', '000000000000', '000000001024'].map((position) => `partial/${prefix}${position}`);
    for (const [index, key] of keys.entries()) await storage.writeFile(key, Buffer.alloc(10 + index));
    await storage.writeFile(`partial/${randomUUID()}-000000000000`, Buffer.from('another upload'));
    // A write that failed part-way leaves nothing a listing shows.
    const broken = `partial/${prefix}000000003072`;
    async function* breaksAfterOneMegabyte() {
      yield* megabytes(1);
      throw new Error('body cut');
    }
    await expect(storage.writeStream(broken, Readable.from(breaksAfterOneMegabyte()))).rejects.toThrow('body cut');
    expect(await storage.list('partial', prefix)).toEqual([
      { key: keys[1], size: 11 },
      { key: keys[2], size: 12 },
      { key: keys[0], size: 10 },
    ]);
    expect(await storage.list('partial', 'no-such-prefix-')).toEqual([]);
  });

  it('passes its readiness probe', async () => {
    await storage.probe();
  });

  it('streams a 200 MB write and read without holding the file in memory', { timeout: 240_000 }, async ({ annotate }) => {
    const megabytesWritten = 200;
    const key = storage.newKey('iso', '.iso');
    const expected = createHash('sha256');
    const actual = createHash('sha256');
    let size = 0;
    try {
      const write = await measured(() => storage.writeStream(key, megabytes(megabytesWritten, expected)));
      const read = await measured(async () => {
        for await (const chunk of await storage.openRead(key)) {
          actual.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
      });
      await annotate(
        `${name}: 200 MB written at ${(megabytesWritten / write.seconds).toFixed(0)} MB/s (memory +${write.growthMb.toFixed(0)} MB), ` +
          `read at ${(megabytesWritten / read.seconds).toFixed(0)} MB/s (memory +${read.growthMb.toFixed(0)} MB)`,
      );
      expect(size).toBe(megabytesWritten * 1024 * 1024);
      expect(actual.digest('hex')).toBe(expected.digest('hex'));
      // Parts in flight, buffers and garbage not yet collected: far below the file's 200 MB.
      expect(write.growthMb).toBeLessThan(100);
      expect(read.growthMb).toBeLessThan(100);
    } finally {
      await storage.remove(key);
    }
  });
});

describe('file storage, s3 backend without its bucket', () => {
  it('fails its readiness probe', async () => {
    const storage = createS3Storage({ ...s3.settings, bucket: 'no-such-bucket', dataDir: path.join(dataDir, 'none') });
    await expect(storage.probe()).rejects.toThrow();
  });
});
