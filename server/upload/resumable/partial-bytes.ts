import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from '../../lib/storage';
import { resumableDirectoryOf } from './layout';

/** One request's writes into an upload, at increasing positions. */
export type PartialWriter = { write(buffers: Buffer[], position: number): Promise<void>; close(): Promise<void> };

/**
 * Where the bytes of unfinished resumable uploads wait, by upload id, for whichever process gets
 * the upload's next request: a folder under the store's incoming area when the store is a local
 * folder (keeping a finished image is then a rename), or the bucket itself when it is one, so the
 * processes share nothing but PostgreSQL and the bucket.
 */
export type PartialBytes = {
  /** What a request gathers before it writes (memory per request). */
  writeBytes: number;
  /** The upload's bytes, none yet, and a writer of them for the request that creates it (its body follows at once). */
  create(id: string): Promise<PartialWriter>;
  open(id: string): Promise<PartialWriter>;
  /** Bytes received so far; undefined when the upload has no bytes here (never made, or removed). */
  offsetOf(id: string): Promise<number | undefined>;
  /**
   * The received bytes as one file under the store's incoming area, for the checks of a finished
   * upload and `FileStorage.adopt`; `release` removes it if it is a copy. Not a copy (`copy`
   * false): the bytes themselves, which adopting takes away whole.
   */
  local(id: string): Promise<{ path: string; copy: boolean; release(): Promise<void> }>;
  /** The upload's bytes, whatever is left of them. */
  remove(id: string): Promise<void>;
  /** Every upload with bytes here, and whatever else lies among them (the sweep removes what no row names). */
  ids(): Promise<string[]>;
};

export function partialBytesOf(storage: FileStorage): PartialBytes {
  return storage.backend === 'local' ? partialBytesInFolder(resumableDirectoryOf(storage)) : partialBytesInBucket(storage);
}

/** A file per upload, written in place at each position. */
export function partialBytesInFolder(directory: string): PartialBytes {
  const fileOf = (id: string) => path.join(directory, id);
  return {
    writeBytes: 1024 * 1024,
    create: (id) => newFileWriter(fileOf(id)),
    open: async (id) => writerOf(await open(fileOf(id), 'r+')),
    offsetOf: (id) =>
      stat(fileOf(id)).then(
        (info) => info.size,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        },
      ),
    local: async (id) => ({ path: fileOf(id), copy: false, release: async () => undefined }),
    remove: (id) => rm(fileOf(id), { recursive: true, force: true }),
    ids: () => readdir(directory).catch(() => [] as string[]),
  };
}

/** A writer of a new file at `filePath` (its folder made when missing); fails if the file exists. */
export async function newFileWriter(filePath: string): Promise<PartialWriter> {
  const file = await open(filePath, 'wx').catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    // The first file since the folder was made (or removed): make it and try once more.
    await mkdir(path.dirname(filePath), { recursive: true });
    return open(filePath, 'wx');
  });
  return writerOf(file);
}

/** Writes in place into an upload's file. */
function writerOf(file: FileHandle): PartialWriter {
  return {
    async write(buffers, position) {
      const bytes = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
      const { bytesWritten } = await file.writev(buffers, position);
      if (bytesWritten !== bytes) throw new Error('short write');
    },
    close: () => file.close(),
  };
}

/** Positions in a key: zero-padded, so the keys' order is the bytes' order. */
const POSITION_DIGITS = 15;

/**
 * An object per write, `partial/<id>-<position>`, beside an empty `partial/<id>` made with the
 * upload. Objects appear whole or not at all, so a write cut by a dying process leaves the upload
 * at the end of its last whole write, where the client resumes.
 */
export function partialBytesInBucket(storage: FileStorage): PartialBytes {
  const markerOf = (id: string) => `partial/${id}`;
  const keyOf = (id: string, position: number) => `partial/${id}-${String(position).padStart(POSITION_DIGITS, '0')}`;

  /** The writes of an upload in order, each where the one before ended (a stray one is ignored); undefined without its marker. */
  async function writesOf(id: string): Promise<{ key: string; size: number }[] | undefined> {
    const listed = await storage.list('partial', id);
    if (!listed.some((object) => object.key === markerOf(id))) return undefined;
    const writes: { key: string; size: number }[] = [];
    let end = 0;
    for (const object of listed) {
      if (object.key !== keyOf(id, end) || object.size === 0) continue;
      writes.push(object);
      end += object.size;
    }
    return writes;
  }

  const writerOf = (id: string): PartialWriter => ({
    write: (buffers, position) => storage.writeFile(keyOf(id, position), Buffer.concat(buffers)),
    close: async () => undefined,
  });
  return {
    // Fewer, larger objects: each costs a request to write, to list and to read back.
    writeBytes: 8 * 1024 * 1024,
    async create(id) {
      await storage.writeFile(markerOf(id), Buffer.alloc(0));
      return writerOf(id);
    },
    open: async (id) => writerOf(id),
    async offsetOf(id) {
      return (await writesOf(id))?.reduce((sum, write) => sum + write.size, 0);
    },
    async local(id) {
      const copy = path.join(storage.incomingDir, `${randomUUID()}.partial`);
      await mkdir(storage.incomingDir, { recursive: true });
      const release = () => rm(copy, { force: true });
      try {
        const file = createWriteStream(copy);
        await pipeline(async function* () {
          for (const write of (await writesOf(id)) ?? []) yield* await storage.openRead(write.key);
        }, file);
      } catch (error) {
        await release();
        throw error;
      }
      return { path: copy, copy: true, release };
    },
    async remove(id) {
      // The marker last: until it goes, the upload is still listed for the sweep to finish.
      for (const object of (await storage.list('partial', `${id}-`)).reverse()) await storage.remove(object.key);
      await storage.remove(markerOf(id));
    },
    async ids() {
      const keys = (await storage.list('partial', '')).map((object) => object.key.slice('partial/'.length));
      return [...new Set(keys.map((name) => name.split('-')[0]!))];
    },
  };
}
