import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Areas of the file store; a key always starts with its area, so keys of two areas never collide.
 * `document`: the screenings' PDFs (descriptions, referrals, facilities lists).
 * `partial`: the bytes of unfinished resumable uploads, where the store is shared by its nature
 * (a bucket; on a local folder they stay under `incomingDir`, server/upload/resumable).
 */
export type StorageArea = 'dicom' | 'iso' | 'partial' | 'document';

export const KEY_PATTERN = /^(dicom|iso|partial|document)\/[A-Za-z0-9._-]+$/;

/** A stored file as a listing names it. */
export type StoredObject = { key: string; size: number };

/** Inclusive byte positions, as HTTP Range counts them. */
export type ByteRange = { start: number; end: number };

/**
 * Stored files (DICOM images, ISO images) by key; the database keeps only the key. Two backends
 * (issue 16): a local folder (below) and S3-compatible object storage (storage-s3.ts). Either way a
 * reader never sees half a file: the local one writes under a temporary name and renames, S3 makes
 * an object visible only when its upload completes. Files are written once, under fresh keys.
 * Callers never see a file path, only these reads and writes.
 */
export type FileStorage = {
  /** Which backend: a local folder (maybe a shared volume) or an S3-compatible bucket. */
  backend: 'local' | 's3';
  /**
   * Where uploaded files wait until they are checked. Always a local folder (multipart temp files,
   * resumable uploads); on the local backend it is inside the store, so adopting one is a rename.
   */
  incomingDir: string;
  /** A fresh key; `prefix` groups the files of one owner (e.g. one screening's disc images). */
  newKey(area: StorageArea, extension: string, prefix?: string): string;
  writeFile(key: string, content: Uint8Array): Promise<void>;
  /** Streams `source` to `key`; nothing is kept at `key` if the source fails part-way. */
  writeStream(key: string, source: Readable | AsyncIterable<Uint8Array>): Promise<void>;
  /** Moves a complete file from under `incomingDir` to its key; the incoming file is gone afterwards. */
  adopt(incomingPath: string, key: string): Promise<void>;
  /** The file's bytes (those of `range` only, if given); rejects with code ENOENT if there is none. */
  openRead(key: string, range?: ByteRange): Promise<Readable>;
  /** Up to `length` bytes from `start` (fewer at the end of the file): header reads. */
  readBytes(key: string, start: number, length: number): Promise<Buffer>;
  /** The file's size, or undefined if there is no such file. */
  sizeOf(key: string): Promise<number | undefined>;
  remove(key: string): Promise<void>;
  /** Deletes the unfinished files of a prefix, left by a writer that died mid-write. */
  removeParts(area: StorageArea, prefix: string): Promise<void>;
  /**
   * Deletes the files of `area` settled for UNNAMED_AFTER_MS at `now` that no row names (`named`
   * answers which of the keys it is given a row holds), and unfinished files as old: what a process
   * that died between writing a file and committing its row left. Answers how many.
   */
  removeUnnamed(area: StorageArea, named: (keys: string[]) => Promise<Set<string>>, now: number): Promise<number>;
  /** The files of `area` whose names start with `prefix`, in the order of their keys. */
  list(area: StorageArea, prefix: string): Promise<StoredObject[]>;
  /** Writes and deletes a small file: the readiness check of the store. */
  probe(): Promise<void>;
};

/** The local backend also answers where a file lies, for tests and tools that look at the folder. */
export type LocalFileStorage = FileStorage & {
  root: string;
  pathOf(key: string): string;
  /** Where a file being written waits until it is complete. */
  partPathOf(key: string): string;
};

/** A file no row names this long after it was put in place was left by a crash: commits and writes take seconds. */
export const UNNAMED_AFTER_MS = 60 * 60 * 1000;
/** Files looked up in the database at once by the sweep of unnamed files. */
export const SWEEP_BATCH = 500;

export const newStorageKey = (area: StorageArea, extension: string, prefix = ''): string => `${area}/${prefix}${randomUUID()}${extension}`;

/** The incoming folder is local for every backend: under `<DATA_DIR>/storage/incoming`. */
export const incomingDirOf = (dataDir: string): string => path.join(dataDir, 'storage', 'incoming');

export function assertIncoming(incomingDir: string, incomingPath: string): void {
  if (path.relative(incomingDir, incomingPath).startsWith('..')) throw new Error('Not an incoming file');
}

/** The error a read of a missing file rejects with, whichever backend: like the file system's. */
export function missingFile(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`No stored file ${key}`), { code: 'ENOENT' });
}

/** The local backend: files under `<DATA_DIR>/storage/<key>` (a local folder or a shared volume). */
export function createFileStorage(dataDir: string): LocalFileStorage {
  const root = path.join(dataDir, 'storage');
  const incomingDir = incomingDirOf(dataDir);

  const pathOf = (key: string): string => {
    // Keys come from this module and the database only, but a path must never leave the store.
    if (!KEY_PATTERN.test(key)) throw new Error(`Not a storage key: ${key}`);
    return path.join(root, key);
  };
  const partPathOf = (key: string): string => `${pathOf(key)}.part`;

  async function completeWrite(key: string, write: (partPath: string) => Promise<void>): Promise<void> {
    const finalPath = pathOf(key);
    const partPath = partPathOf(key);
    await mkdir(path.dirname(finalPath), { recursive: true });
    try {
      await write(partPath);
      await rename(partPath, finalPath);
    } catch (error) {
      await rm(partPath, { force: true });
      throw error;
    }
  }

  return {
    backend: 'local',
    root,
    incomingDir,
    newKey: newStorageKey,
    pathOf,
    partPathOf,
    writeFile: (key, content) => completeWrite(key, (partPath) => writeFile(partPath, content)),
    writeStream: (key, source) => completeWrite(key, (partPath) => pipeline(source, createWriteStream(partPath))),
    adopt: async (incomingPath, key) => {
      assertIncoming(incomingDir, incomingPath);
      const finalPath = pathOf(key);
      // The area's folder is there but for the first file: one rename, the folder made only if missing.
      await rename(incomingPath, finalPath).catch(async (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync(incomingPath)) throw error;
        await mkdir(path.dirname(finalPath), { recursive: true });
        await rename(incomingPath, finalPath);
      });
    },
    openRead: async (key, range) => {
      // Opened before the stream is handed over, so a missing file rejects here, before a response starts.
      const handle = await open(pathOf(key), 'r');
      return handle.createReadStream({ ...range, highWaterMark: 1024 * 1024 });
    },
    readBytes: async (key, start, length) => {
      const handle = await open(pathOf(key), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, start);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    sizeOf: async (key) => {
      const info = await stat(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      return info?.size;
    },
    remove: async (key) => {
      await rm(pathOf(key), { force: true });
      await rm(partPathOf(key), { force: true });
    },
    removeParts: async (area, prefix) => {
      const directory = path.join(root, area);
      const names = await readdir(directory).catch(() => [] as string[]);
      for (const name of names) {
        if (name.startsWith(prefix) && name.endsWith('.part')) await rm(path.join(directory, name), { force: true });
      }
    },
    removeUnnamed: async (area, named, now) => {
      const settledBefore = now - UNNAMED_AFTER_MS;
      const directory = path.join(root, area);
      const names = await readdir(directory).catch(() => [] as string[]);
      let removed = 0;
      for (let start = 0; start < names.length; start += SWEEP_BATCH) {
        const settled: string[] = [];
        for (const name of names.slice(start, start + SWEEP_BATCH)) {
          if (!KEY_PATTERN.test(`${area}/${name}`)) continue;
          const info = await stat(path.join(directory, name)).catch(() => undefined);
          // ctime, not mtime: a rename sets it, so a file adopted a moment ago (its row's commit
          // maybe still running) is never settled, however old its bytes are.
          if (info?.isFile() && info.ctimeMs < settledBefore) settled.push(name);
        }
        const complete = settled.filter((name) => !name.endsWith('.part'));
        const kept = await named(complete.map((name) => `${area}/${name}`));
        for (const name of settled) {
          if (name.endsWith('.part') || !kept.has(`${area}/${name}`)) {
            await rm(path.join(directory, name), { force: true });
            removed++;
          }
        }
      }
      return removed;
    },
    list: async (area, prefix) => {
      const directory = path.join(root, area);
      const names = (await readdir(directory).catch(() => [] as string[])).filter(
        (name) => name.startsWith(prefix) && !name.endsWith('.part') && KEY_PATTERN.test(`${area}/${name}`),
      );
      const listed: StoredObject[] = [];
      for (const name of names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        const info = await stat(path.join(directory, name)).catch(() => undefined);
        if (info?.isFile()) listed.push({ key: `${area}/${name}`, size: info.size });
      }
      return listed;
    },
    probe: async () => {
      await mkdir(root, { recursive: true });
      const probe = path.join(root, `.readyz-${randomUUID()}`);
      try {
        await writeFile(probe, 'ok');
      } finally {
        await rm(probe, { force: true });
      }
    },
  };
}
