import { mkdir, open, rm, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload, type KvStore } from '@tus/utils';
import type { Db } from '../../db';
import { deleteUpload, findUpload, type ResumableUploadRow } from './repo';

/** How much of a request body is gathered before it is written. */
const WRITE_BYTES = 1024 * 1024;

/**
 * FileStore's configstore keeps an upload's length and metadata in a `.json` beside its bytes.
 * Here they live in `resumable_uploads` (one truth for every process sharing the database), and
 * ResumableFileStore overrides every method that would use the configstore: this one only makes
 * sure nothing ever does.
 */
const UNUSED_CONFIGSTORE: KvStore<Upload> = {
  get: () => Promise.reject(new Error('resumable upload state lives in resumable_uploads')),
  set: () => Promise.reject(new Error('resumable upload state lives in resumable_uploads')),
  delete: () => Promise.reject(new Error('resumable upload state lives in resumable_uploads')),
};

/**
 * @tus/file-store with the state in the database. Only the extensions of docs/api.md are offered
 * (no deferred length). An upload that completed has no bytes here any more (they were stored or
 * dropped): it answers its full length as its offset, from its row.
 */
export class ResumableFileStore extends FileStore {
  constructor(
    private readonly db: Db,
    directory: string,
    expiryMs: number,
  ) {
    super({ directory, configstore: UNUSED_CONFIGSTORE, expirationPeriodInMilliseconds: expiryMs });
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  /** See completedHere. */
  private readonly completedByRunningRequests = new Map<string, number>();
  private readonly diskFailures = new Map<string, unknown>();

  /**
   * An empty file for the bytes; the row was made when the upload was reserved (service.ts). The
   * folder is made here (see the prototype's checkOrCreateDirectory below).
   */
  override async create(upload: Upload): Promise<Upload> {
    const filePath = path.join(this.directory, upload.id);
    await writeFile(filePath, '', { flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      // The first upload since the folder was made (or removed): make it and try once more.
      await mkdir(this.directory, { recursive: true });
      await writeFile(filePath, '', { flag: 'wx' });
    });
    upload.storage = { type: 'file', path: filePath };
    return upload;
  }

  /**
   * FileStore's write pipes every socket-sized chunk (~64 KB) through a transform into a write
   * stream: one `write(2)` per chunk, the main cost of a resumable upload after the database. The
   * chunks are gathered into writes of WRITE_BYTES instead (memory stays bounded by it). When the
   * body breaks off, what arrived is written before the error, so the client resumes after it.
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const file = await open(path.join(this.directory, id), 'r+');
    let position = offset;
    let gathered: Buffer[] = [];
    let gatheredBytes = 0;
    // Set while the disk writes: a failure then is the disk's (full, gone), not the body's.
    let writing = false;
    const flush = async () => {
      if (gatheredBytes === 0) return;
      const [buffers, bytes] = [gathered, gatheredBytes];
      gathered = [];
      gatheredBytes = 0;
      writing = true;
      const { bytesWritten } = await file.writev(buffers, position);
      writing = false;
      if (bytesWritten !== bytes) throw new Error('short write');
      position += bytes;
    };
    try {
      try {
        for await (const chunk of readable as AsyncIterable<Buffer>) {
          gathered.push(chunk);
          gatheredBytes += chunk.length;
          if (gatheredBytes >= WRITE_BYTES) await flush();
        }
      } catch (error) {
        if (writing) {
          // tus answers every failure of a write that also broke its body stream as "aborted":
          // the disk's own error is kept for the answer (a full disk has its code, docs/api.md).
          this.diskFailures.set(id, error);
          throw error;
        }
        await flush();
        throw ERRORS.FILE_WRITE_ERROR;
      }
      await flush();
      return position;
    } finally {
      await file.close();
    }
  }

  /** Why the disk refused the last write of upload `id` in this process, if it did (asked once). */
  takeDiskFailure(id: string): unknown {
    const failure = this.diskFailures.get(id);
    this.diskFailures.delete(id);
    return failure;
  }

  /**
   * Marks an upload as completed by a request still running in this process, until the call it
   * answers: tus reads the upload once more before answering (to date its expiry), and that
   * read needs no database.
   */
  completedHere(id: string, length: number): () => void {
    this.completedByRunningRequests.set(id, length);
    return () => this.completedByRunningRequests.delete(id);
  }

  override async getUpload(id: string): Promise<Upload> {
    const completedLength = this.completedByRunningRequests.get(id);
    if (completedLength !== undefined) return new Upload({ id, size: completedLength, offset: completedLength });
    const row = await findUpload(this.db, id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.outcome) return completedUpload(row);
    const filePath = path.join(this.directory, id);
    const offset = await stat(filePath).then(
      (stats) => stats.size,
      (error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? ERRORS.FILE_NO_LONGER_EXISTS : error;
      },
    );
    return new Upload({
      id,
      size: row.length,
      offset,
      metadata: row.metadata,
      creation_date: row.createdAt.toISOString(),
      storage: { type: 'file', path: filePath },
    });
  }

  /** Termination: the bytes (if any are left) and the row; the lease is its caller's. */
  override async remove(id: string): Promise<void> {
    await rm(path.join(this.directory, id), { force: true });
    await deleteUpload(this.db, id);
  }
}

/**
 * A completed upload never expires in tus's sense (its row is kept a while for the outcome): it is
 * given no creation date, which tus reads as "created now".
 */
function completedUpload(row: ResumableUploadRow): Upload {
  return new Upload({ id: row.id, size: row.length, offset: row.length, metadata: row.metadata });
}

/**
 * FileStore makes its folder from its constructor and throws a failure from an fs callback, where
 * nothing can catch it: a broken DATA_DIR would end the process. The method is private in its
 * typings, so it is replaced on the prototype; `create` makes the folder instead, and a failure
 * there is that request's error (and /readyz reports the storage).
 */
Object.defineProperty(ResumableFileStore.prototype, 'checkOrCreateDirectory', { value: () => undefined });
