import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { DICOM_MARKER_OFFSET } from '../../../common/types/upload';
import type { Db } from '../../db';
import { DICOM_HEAD_BYTES, HeadKeeper, withBlankStart } from '../../lib/multipart/part-file';
import { newFileWriter, type PartialBytes, type PartialWriter } from './partial-bytes';
import { deleteUpload, findUpload, type ResumableUploadRow } from './repo';

/**
 * The tus data store of resumable uploads: the state in the database (`resumable_uploads`, one
 * truth for every process sharing it), the bytes in PartialBytes (a folder, or the bucket). Only
 * the extensions of docs/api.md are offered (no deferred length). An upload that completed has no
 * bytes any more (they were stored or dropped): it answers its full length as its offset, from
 * its row.
 */
export class ResumableFileStore extends DataStore {
  constructor(
    private readonly db: Db,
    private readonly partial: PartialBytes,
    private readonly expiryMs: number,
    /** Where the file of upload `id` goes when its creating request brings it whole (layout.ts wholeUploadFileOf). */
    private readonly wholeFileOf: (id: string) => string,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  /** See completedHere. */
  private readonly completedByRunningRequests = new Map<string, number>();
  private readonly diskFailures = new Map<string, unknown>();
  /** See createdHere: by upload, the first bytes kept so far, whether its body brings the whole file, and the writer its creation opened until its body takes it. */
  private readonly creations = new Map<string, { head: HeadKeeper; whole: boolean; writer?: PartialWriter }>();

  override getExpiration(): number {
    return this.expiryMs;
  }

  /**
   * No bytes yet; the row was made when the upload was reserved (service.ts), or is made when it
   * is stored when the body brings the whole file (which is then written to a file of its own:
   * wholeFileOf). The writer stays open for the body that follows in the same request (createdHere).
   */
  override async create(upload: Upload): Promise<Upload> {
    const creation = this.creations.get(upload.id);
    const writer = creation?.whole ? await newFileWriter(this.wholeFileOf(upload.id)) : await this.partial.create(upload.id);
    if (creation) creation.writer = writer;
    else await writer.close();
    return upload;
  }

  /**
   * The body's socket-sized chunks (~64 KB) are gathered into writes of `partial.writeBytes`
   * (memory stays bounded by it): one write per chunk was the main cost of a resumable upload after
   * the database. When the body breaks off, what arrived is written before the error, so the
   * client resumes after it. The DICOM preamble is written as zeros, as the multipart receiver
   * writes it (../service.ts zeroes it before storing anyway); the head createdHere asked for is
   * kept as sent.
   */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const creation = offset === 0 ? this.creations.get(id) : undefined;
    const writer = creation?.writer ?? (await this.partial.open(id));
    if (creation) creation.writer = undefined;
    let position = offset;
    let gathered: Buffer[] = [];
    let gatheredBytes = 0;
    // Set while the store writes: a failure then is the store's (a full disk, gone), not the body's.
    let writing = false;
    const flush = async () => {
      if (gatheredBytes === 0) return;
      const [buffers, bytes] = [gathered, gatheredBytes];
      gathered = [];
      gatheredBytes = 0;
      writing = true;
      await writer.write(buffers, position);
      writing = false;
      position += bytes;
    };
    try {
      try {
        for await (const chunk of readable as AsyncIterable<Buffer>) {
          creation?.head.keep(chunk);
          gathered.push(...withBlankStart(chunk, position + gatheredBytes, DICOM_MARKER_OFFSET));
          gatheredBytes += chunk.length;
          if (gatheredBytes >= this.partial.writeBytes) await flush();
        }
      } catch (error) {
        if (writing) {
          // tus answers every failure of a write that also broke its body stream as "aborted":
          // the store's own error is kept for the answer (a full disk has its code, docs/api.md).
          this.diskFailures.set(id, error);
          throw error;
        }
        await flush();
        throw ERRORS.FILE_WRITE_ERROR;
      }
      await flush();
      return position;
    } finally {
      await writer.close();
    }
  }

  /** Why the disk refused the last write of upload `id` in this process, if it did (asked once). */
  takeDiskFailure(id: string): unknown {
    const failure = this.diskFailures.get(id);
    this.diskFailures.delete(id);
    return failure;
  }

  /**
   * Upload `id` is being created by a request running here, until the call it answers. That
   * request's body, which may be the whole file, goes to the file its creation opened (no second
   * open), and its first bytes are kept, so the check of a file sent whole reads its header from
   * memory instead of opening it twice (headOf). A writer no body took is closed at the end.
   * `whole`: the body brings every byte of the file (create).
   */
  createdHere(id: string, whole: boolean): () => void {
    this.creations.set(id, { head: new HeadKeeper(DICOM_HEAD_BYTES), whole });
    return () => {
      const unused = this.creations.get(id)?.writer;
      this.creations.delete(id);
      void unused?.close().catch(() => undefined);
    };
  }

  /** The first bytes of upload `id` as sent (up to DICOM_HEAD_BYTES), when the request creating it here wrote them (createdHere). */
  headOf(id: string): Buffer | undefined {
    const head = this.creations.get(id)?.head;
    return head && head.kept > 0 ? head.head : undefined;
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
    const offset = await this.partial.offsetOf(id);
    if (offset === undefined) throw ERRORS.FILE_NO_LONGER_EXISTS;
    return new Upload({ id, size: row.length, offset, metadata: row.metadata, creation_date: row.createdAt.toISOString() });
  }

  /** Termination: the bytes (if any are left) and the row; the lease is its caller's. */
  override async remove(id: string): Promise<void> {
    await this.partial.remove(id);
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
