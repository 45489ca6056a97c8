import type { PreviousUpload, UrlStorage } from 'tus-js-client';
import { sha256Hex } from '../../lib/sha256';

/**
 * Where tus remembers the upload URL of a file sent partly, so a reload and a new pick of the same
 * folder go on from the last stored byte. Health data: nothing on the device may name a file or a
 * patient. The key is a hash of (user id, relative path, size, modification time) and the value
 * is only the upload URL and when it was made; tus's own metadata (the file's path) is not kept.
 */
const KEY_PREFIX = 'portal-upload-resume:';

/** The server removes unfinished uploads after UPLOAD_RESUMABLE_EXPIRY_HOURS (24 by default). */
export const RESUME_EXPIRY_MS = 24 * 60 * 60 * 1000;

type StoredEntry = { uploadUrl: string; creationTime: string };

/** The file's identity for resuming: only the same user picking the same file finds it again. */
export function resumeFingerprint(userId: number, file: { path: string; size: number; lastModified: number }): Promise<string> {
  return sha256Hex(JSON.stringify([userId, file.path, file.size, file.lastModified]));
}

function readEntry(storage: Storage, key: string): StoredEntry | null {
  try {
    const value = JSON.parse(storage.getItem(key) ?? 'null') as Partial<StoredEntry> | null;
    if (typeof value?.uploadUrl === 'string' && typeof value.creationTime === 'string') {
      return { uploadUrl: value.uploadUrl, creationTime: value.creationTime };
    }
  } catch {
    // Not ours or damaged: dropped below like an expired one.
  }
  return null;
}

/** localStorage behind tus's UrlStorage interface; one entry per file. */
export class ResumeStorage implements UrlStorage {
  constructor(
    private readonly storage: Storage = localStorage,
    private readonly now: () => number = Date.now,
  ) {}

  /** The entry under `key` while it can still be resumed; an expired or damaged one is removed. */
  private live(key: string): PreviousUpload | null {
    const entry = readEntry(this.storage, key);
    const createdAt = entry ? Date.parse(entry.creationTime) : Number.NaN;
    if (!entry || !(this.now() - createdAt < RESUME_EXPIRY_MS)) {
      this.storage.removeItem(key);
      return null;
    }
    return { ...entry, urlStorageKey: key, size: null, metadata: {}, parallelUploadUrls: null };
  }

  private keys(): string[] {
    const keys: string[] = [];
    for (let index = 0; index < this.storage.length; index++) {
      const key = this.storage.key(index);
      if (key?.startsWith(KEY_PREFIX)) keys.push(key);
    }
    return keys;
  }

  async findAllUploads(): Promise<PreviousUpload[]> {
    return this.keys().flatMap((key) => this.live(key) ?? []);
  }

  async findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]> {
    const found = this.live(KEY_PREFIX + fingerprint);
    return found ? [found] : [];
  }

  async removeUpload(urlStorageKey: string): Promise<void> {
    if (urlStorageKey.startsWith(KEY_PREFIX)) this.storage.removeItem(urlStorageKey);
  }

  /** Keeps only the URL and the time: tus's metadata of the upload holds the file's path. */
  async addUpload(fingerprint: string, upload: PreviousUpload): Promise<string> {
    const key = KEY_PREFIX + fingerprint;
    if (!upload.uploadUrl) return key;
    const entry: StoredEntry = { uploadUrl: upload.uploadUrl, creationTime: new Date(this.now()).toISOString() };
    try {
      this.storage.setItem(key, JSON.stringify(entry));
    } catch {
      // Storage full or switched off: this file then starts over after a reload.
    }
    return key;
  }

  /** Drops every expired entry, e.g. when the upload page opens. */
  dropExpired(): void {
    for (const key of this.keys()) this.live(key);
  }

  clear(): void {
    for (const key of this.keys()) this.storage.removeItem(key);
  }
}

/** At sign-out: no trace of her uploads stays on a shared device. */
export function forgetResumableUploads(): void {
  try {
    new ResumeStorage().clear();
  } catch {
    // No localStorage (switched off): nothing was stored.
  }
}
