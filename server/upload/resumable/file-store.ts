import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { ERRORS, Upload, type KvStore } from '@tus/utils';
import type { Db } from '../../db';
import { deleteUpload, findUpload, listUploadIds, updateDeclaration, type ResumableUploadRow } from './repo';

/**
 * tus's configstore over `resumable_uploads`: the length and metadata of an upload come from the
 * database, never from a `.json` file beside the bytes, so every process sharing the database
 * sees the same uploads. The row itself is created with its owner when the upload is reserved
 * (service.ts); `set` only records what tus declares of it.
 */
class UploadsConfigstore implements KvStore<Upload> {
  constructor(private readonly db: Db) {}

  async get(id: string): Promise<Upload | undefined> {
    const row = await findUpload(this.db, id);
    return row && new Upload({ id, size: row.length, offset: 0, metadata: row.metadata, creation_date: row.createdAt.toISOString() });
  }

  async set(id: string, upload: Upload): Promise<void> {
    if (upload.size === undefined || !(await updateDeclaration(this.db, id, upload.size, upload.metadata ?? {}))) {
      throw ERRORS.FILE_NOT_FOUND;
    }
  }

  async delete(id: string): Promise<void> {
    await deleteUpload(this.db, id);
  }

  async list(): Promise<string[]> {
    return listUploadIds(this.db);
  }
}

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
    super({ directory, configstore: new UploadsConfigstore(db), expirationPeriodInMilliseconds: expiryMs });
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  /** The folder is made here (see the prototype's checkOrCreateDirectory below). */
  override async create(upload: Upload): Promise<Upload> {
    await mkdir(this.directory, { recursive: true });
    return super.create(upload);
  }

  override async getUpload(id: string): Promise<Upload> {
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
