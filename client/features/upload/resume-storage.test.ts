// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { PreviousUpload } from 'tus-js-client';
import { forgetResumableUploads, RESUME_EXPIRY_MS, ResumeStorage, resumeFingerprint } from './resume-storage';

/** A Storage in memory, with the same key order rules as localStorage (insertion order). */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  dump() {
    return Object.fromEntries(this.items);
  }
}

const PARTIAL: PreviousUpload = {
  size: 4_000_000,
  metadata: { name: 'Kowalska Anna/IM00001' },
  creationTime: 'whatever tus says',
  urlStorageKey: '',
  uploadUrl: 'http://portal.test/api/dicom/uploads/abc',
  parallelUploadUrls: null,
};

describe('resumeFingerprint', () => {
  it('is a hash of user, path, size and date: nothing of the file is readable from it', async () => {
    const file = { path: 'Kowalska Anna/IM00001', size: 4_000_000, lastModified: 1_700_000_000_000 };
    const fingerprint = await resumeFingerprint(7, file);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await resumeFingerprint(7, file)).toBe(fingerprint);
    expect(await resumeFingerprint(8, file)).not.toBe(fingerprint);
    expect(await resumeFingerprint(7, { ...file, size: file.size + 1 })).not.toBe(fingerprint);
    expect(await resumeFingerprint(7, { ...file, lastModified: file.lastModified + 1 })).not.toBe(fingerprint);
    expect(await resumeFingerprint(7, { ...file, path: 'other/IM00001' })).not.toBe(fingerprint);
  });
});

describe('ResumeStorage', () => {
  it('keeps only the upload URL and its creation time, under the fingerprint', async () => {
    const memory = new MemoryStorage();
    const storage = new ResumeStorage(memory, () => Date.parse('2026-11-26T08:00:00Z'));
    const key = await storage.addUpload('f1', PARTIAL);
    expect(memory.dump()).toEqual({
      [key]: JSON.stringify({ uploadUrl: PARTIAL.uploadUrl, creationTime: '2026-11-26T08:00:00.000Z' }),
    });
    expect(JSON.stringify(memory.dump())).not.toContain('Kowalska');
    expect(await storage.findUploadsByFingerprint('f1')).toEqual([
      {
        uploadUrl: PARTIAL.uploadUrl,
        creationTime: '2026-11-26T08:00:00.000Z',
        urlStorageKey: key,
        size: null,
        metadata: {},
        parallelUploadUrls: null,
      },
    ]);
    expect(await storage.findUploadsByFingerprint('f2')).toEqual([]);
    await storage.removeUpload(key);
    expect(memory.length).toBe(0);
  });

  it('drops entries older than the server keeps unfinished uploads, and leaves other keys alone', async () => {
    const memory = new MemoryStorage();
    let now = Date.parse('2026-11-26T08:00:00Z');
    const storage = new ResumeStorage(memory, () => now);
    memory.setItem('portal.prefs', '{"lang":"pl"}');
    await storage.addUpload('old', PARTIAL);
    now += RESUME_EXPIRY_MS - 60_000;
    await storage.addUpload('young', PARTIAL);
    now += 120_000;
    expect((await storage.findAllUploads()).map((upload) => upload.urlStorageKey)).toEqual(['portal-upload-resume:young']);
    expect(await storage.findUploadsByFingerprint('old')).toEqual([]);
    memory.setItem('portal-upload-resume:broken', 'not json');
    storage.dropExpired();
    expect(Object.keys(memory.dump())).toEqual(['portal.prefs', 'portal-upload-resume:young']);
  });

  it('is emptied at sign-out', async () => {
    const storage = new ResumeStorage();
    await storage.addUpload('a', PARTIAL);
    await storage.addUpload('b', PARTIAL);
    localStorage.setItem('portal.prefs', 'kept');
    forgetResumableUploads();
    expect(await storage.findAllUploads()).toEqual([]);
    expect(localStorage.getItem('portal.prefs')).toBe('kept');
  });
});
