import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Areas of the file store; a key always starts with its area, so keys of two areas never collide. */
type StorageArea = 'dicom' | 'iso';

const KEY_PATTERN = /^(dicom|iso)\/[A-Za-z0-9._-]+$/;

/**
 * Stored files (DICOM images, ISO images) live under `<DATA_DIR>/storage/<key>`; the database keeps
 * only the key. Files are written under a temporary name and renamed when complete, so a reader
 * never sees half a file, whatever happens mid-write.
 */
export type FileStorage = {
  root: string;
  /** Where uploaded files wait until they are checked: inside the store, so adopting one is a rename. */
  incomingDir: string;
  /** A fresh key; `prefix` groups the files of one owner (e.g. one screening's disc images). */
  newKey(area: StorageArea, extension: string, prefix?: string): string;
  pathOf(key: string): string;
  /** Where a file being written waits until it is complete. */
  partPathOf(key: string): string;
  writeFile(key: string, content: Uint8Array): Promise<void>;
  writeStream(key: string, source: Readable | AsyncIterable<Uint8Array>): Promise<void>;
  /** Moves a complete file from under `incomingDir` to its key by renaming it (atomic, no copy). */
  adopt(incomingPath: string, key: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Deletes the unfinished files of a prefix, left by a writer that died mid-write. */
  removeParts(area: StorageArea, prefix: string): Promise<void>;
  /**
   * Deletes the files of `area` settled for UNNAMED_AFTER_MS at `now` that no row names (`named`
   * answers which of the keys it is given a row holds), and unfinished files as old: what a process
   * that died between writing a file and committing its row left. Answers how many.
   */
  removeUnnamed(area: StorageArea, named: (keys: string[]) => Promise<Set<string>>, now: number): Promise<number>;
};

/** A file no row names this long after it was put in place was left by a crash: commits and writes take seconds. */
export const UNNAMED_AFTER_MS = 60 * 60 * 1000;
/** Files looked up in the database at once by the sweep of unnamed files. */
const SWEEP_BATCH = 500;

export function createFileStorage(dataDir: string): FileStorage {
  const root = path.join(dataDir, 'storage');
  const incomingDir = path.join(root, 'incoming');

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
    root,
    incomingDir,
    newKey: (area, extension, prefix = '') => `${area}/${prefix}${randomUUID()}${extension}`,
    pathOf,
    partPathOf,
    writeFile: (key, content) => completeWrite(key, (partPath) => writeFile(partPath, content)),
    writeStream: (key, source) => completeWrite(key, (partPath) => pipeline(source, createWriteStream(partPath))),
    adopt: async (incomingPath, key) => {
      if (path.relative(incomingDir, incomingPath).startsWith('..')) throw new Error('Not an incoming file');
      const finalPath = pathOf(key);
      await mkdir(path.dirname(finalPath), { recursive: true });
      await rename(incomingPath, finalPath);
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
  };
}
