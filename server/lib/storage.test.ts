import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStorage } from './storage';

const dataDir = mkdtempSync(path.join(tmpdir(), 'storage-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const storage = createFileStorage(dataDir);

describe('file storage', () => {
  it('keeps files under DATA_DIR/storage/<area>/ by key', async () => {
    const key = storage.newKey('dicom', '.dcm');
    expect(key).toMatch(/^dicom\/[0-9a-f-]{36}\.dcm$/);
    await storage.writeFile(key, Buffer.from('DICM'));
    expect(storage.pathOf(key)).toBe(path.join(dataDir, 'storage', key));
    expect(readFileSync(storage.pathOf(key), 'utf8')).toBe('DICM');
  });

  it('leaves neither the file nor its .part behind when the stream fails part-way', async () => {
    const key = storage.newKey('iso', '.iso');
    async function* breaksAfterOneChunk() {
      yield Buffer.alloc(64 * 1024, 1);
      throw new Error('disk went away');
    }
    await expect(storage.writeStream(key, Readable.from(breaksAfterOneChunk()))).rejects.toThrow('disk went away');
    expect(existsSync(storage.pathOf(key))).toBe(false);
    expect(existsSync(storage.partPathOf(key))).toBe(false);
    expect(readdirSync(path.join(dataDir, 'storage', 'iso'))).toEqual([]);
  });

  it('refuses a key that would leave the store', () => {
    expect(() => storage.pathOf('../local-secrets.json')).toThrow();
    expect(() => storage.pathOf('dicom/../../x')).toThrow();
  });
});
