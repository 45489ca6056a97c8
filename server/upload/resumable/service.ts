import { rm } from 'node:fs/promises';
import type { ResumableUploadOutcome } from '../../../common/types/upload';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { FileStorage } from '../../lib/storage';
import { knownInstances } from '../repo';
import type { FileFate, UploadService, Uploader } from '../service';
import { reportBatch } from './batch-audit';
import type { PostgresLocker } from './locker';
import { partialBytesOf } from './partial-bytes';
import { wholeUploadFileOf } from './layout';
import {
  deleteUpload,
  findUpload,
  insertUploadWithinQuota,
  quotaUsage,
  recordCompletion,
  reservedBytes,
  type ResumableUploadRow,
} from './repo';

export type ResumableDeps = {
  db: Db;
  storage: FileStorage;
  config: Pick<Config, 'upload'>;
  clock: Clock;
  logger: Logger;
};

/** What the client declared when creating an upload (already checked by the routes). */
export type NewResumableUpload = { id: string; length: number; name: string; batch: string };

const HOUR_MS = 60 * 60 * 1000;

/** A complete upload's bytes as one local file (`copy`: of bytes kept elsewhere), and how to remove what is left of them. */
type CompleteBytes = { local: { path: string; copy: boolean; release(): Promise<void> }; remove(): Promise<void> };

/**
 * Resumable uploads (docs/api.md "Resumable DICOM upload"): the story around tus. Creating one
 * reserves its length against her quota (unless its creating request brings it whole); its last
 * byte runs the same check-and-store as the multipart upload (../service.ts) under the upload's
 * lease; an unfinished one is nobody's to see.
 */
export function createResumableUploads(deps: ResumableDeps, uploads: UploadService, locker: PostgresLocker) {
  const { db, clock } = deps;
  const limits = deps.config.upload;
  const partial = partialBytesOf(deps.storage);
  const expiryMs = limits.resumableExpiryHours * HOUR_MS;

  /**
   * Stored bytes, plus what her unfinished uploads declared, plus this one must fit her quota
   * (an early refusal, before she sends a byte; storing checks again: repo.ts
   * insertUploadWithinQuota). Answers the row it made.
   */
  async function reserve(uploader: Uploader, upload: NewResumableUpload): Promise<ResumableUploadRow> {
    const row = unreserved(uploader, upload);
    if (!(await insertUploadWithinQuota(db, row, limits.quotaBytes))) {
      const { usedBytes, reservedBytes } = await quotaUsage(db, uploader.personalDataId, row.createdAt);
      throw new AppError(413, 'UPLOAD_QUOTA_EXCEEDED', { quotaBytes: limits.quotaBytes, usedBytes, reservedBytes });
    }
    return row;
  }

  /**
   * The row of a new upload, not written: reserve writes it, or, for a file its creating request
   * brings whole, storing it does (complete). Such a file needs no reservation: it would hold her
   * quota only for the seconds of that request, at the cost of a statement per file; the same
   * check (stored + reserved + its length) is made when the file is stored.
   */
  function unreserved(uploader: Uploader, upload: NewResumableUpload): ResumableUploadRow {
    const createdAt = clock();
    return {
      id: upload.id,
      userId: uploader.userId,
      personalDataId: uploader.personalDataId,
      length: upload.length,
      metadata: { name: upload.name },
      batch: upload.batch,
      createdAt: new Date(createdAt),
      expiresAt: new Date(createdAt + expiryMs),
      outcome: null,
    };
  }

  /** Hers and alive, or 404: someone else's, unknown, and unfinished past its time look the same. */
  async function ownedUpload(uploader: Uploader, id: string): Promise<ResumableUploadRow> {
    const row = await findUpload(db, id);
    if (!row || row.userId !== uploader.userId) throw notFound();
    if (!row.outcome && row.expiresAt.getTime() <= clock()) throw notFound();
    return row;
  }

  /** Bytes received so far; 0 when none were written yet. */
  async function offsetOf(id: string): Promise<number> {
    return (await partial.offsetOf(id)) ?? 0;
  }

  /**
   * The file is complete: check and store it exactly as a multipart file, and record the outcome
   * in the same transaction. Idempotent under the upload's lease: a second call (a retried
   * request, the outcome asked for after a crash) answers the recorded outcome. A quota refusal
   * ends the upload (bytes and row) and answers 413 as the multipart upload does.
   *
   * `created`: the row this very request made (`whole`: not written yet, its body brought the
   * whole file: unreserved), when its body brought the last byte (tus checked that it wrote
   * every byte), and the file's first bytes as this request kept them. Nobody else knows the
   * upload's address before this request answers, so it needs neither the lease, nor a second
   * read of its row, nor a look at its bytes' length (most DICOM files fit in one request: this
   * is the common case).
   */
  async function complete(
    uploader: Uploader,
    id: string,
    created?: { row: ResumableUploadRow; whole: boolean; head: Buffer | undefined },
  ): Promise<ResumableUploadOutcome> {
    if (created) return store(uploader, created.row, created.head, created.whole);
    const lease = locker.leaseOf(id);
    // Completion is short and must not be cut: a request asking for the lease waits for it.
    await lease.lock(new AbortController().signal, () => undefined);
    try {
      const row = await ownedUpload(uploader, id);
      return row.outcome ?? (await checkAndStore(uploader, row));
    } finally {
      await lease.unlock();
    }
  }

  /** The body of `complete`, once nobody else can touch the upload. */
  async function checkAndStore(uploader: Uploader, row: ResumableUploadRow): Promise<ResumableUploadOutcome> {
    const offset = await offsetOf(row.id);
    if (offset !== row.length) throw new AppError(409, 'UPLOAD_INCOMPLETE', { offset, length: row.length });
    return store(uploader, row);
  }

  /**
   * Checks and stores a complete upload, recording its outcome in the statement that stores it.
   * `head`: the file's first bytes, when the request that wrote them kept them (its preamble was
   * written blank: file-store.ts). `whole`: its creating request brought it whole (unreserved).
   */
  async function store(uploader: Uploader, row: ResumableUploadRow, head?: Buffer, whole = false): Promise<ResumableUploadOutcome> {
    const { id } = row;
    const bytes = whole ? wholeFileBytes(id) : await partialBytes(id);
    const file = { path: bytes.local.path, size: row.length, clientName: row.metadata.name ?? '', head };
    const now = clock();
    const completion = { completedAt: new Date(now), expiresAt: new Date(now + expiryMs), ip: uploader.ip };
    let fates: FileFate[];
    try {
      fates = await uploads.keep(uploader, [file], {
        recordFate: (trx, fate) => recordCompletion(trx, row, fate, completion),
        auditedLater: true,
        // Sent whole, it reserved nothing at its creation: what her unfinished uploads reserve counts now, as it would have then.
        reserved: whole ? (trx) => reservedBytes(trx, uploader.personalDataId, completion.completedAt) : undefined,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'UPLOAD_QUOTA_EXCEEDED') await discard(id, whole);
      throw error;
    } finally {
      await bytes.local.release();
    }
    const fate = fates[0]!;
    // What is left of the bytes goes; stored from the bytes themselves, the rename took them all.
    if (fate.outcome !== 'stored' || bytes.local.copy) await bytes.remove();
    return fate;
  }

  async function partialBytes(id: string): Promise<CompleteBytes> {
    return { local: await partial.local(id), remove: () => partial.remove(id) };
  }

  function wholeFileBytes(id: string): CompleteBytes {
    const path = wholeUploadFileOf(deps.storage, id);
    return { local: { path, copy: false, release: async () => undefined }, remove: () => rm(path, { force: true }) };
  }

  /** `GET …/outcome`: the recorded outcome; or, when every byte is there but none was recorded (the process died), completes it now. */
  async function outcomeOf(uploader: Uploader, id: string): Promise<ResumableUploadOutcome> {
    const row = await ownedUpload(uploader, id);
    if (row.outcome) return row.outcome;
    const offset = await offsetOf(id);
    if (offset !== row.length) throw new AppError(409, 'UPLOAD_INCOMPLETE', { offset, length: row.length });
    return complete(uploader, id);
  }

  /**
   * Bytes and row of an upload nobody can reach (its creating request failed before the client
   * learnt its address). `whole`: its creating request brought it whole, it has no row (unreserved).
   */
  async function discard(id: string, whole = false): Promise<void> {
    if (whole) return wholeFileBytes(id).remove();
    await partial.remove(id);
    await deleteUpload(db, id);
  }

  /** `POST …/batches/<batch>/report`: the pick is over, its audit entry is written now (idempotent). */
  async function reportBatchOf(uploader: Uploader, batch: string): Promise<void> {
    await reportBatch(db, { userId: uploader.userId, batch }, new Date(clock()));
  }

  async function known(uploader: Uploader, uids: string[]): Promise<string[]> {
    const unique = [...new Set(uids)];
    const found = await knownInstances(db, uploader.personalDataId, unique);
    return unique.filter((uid) => found.has(uid));
  }

  return { partial, expiryMs, reserve, unreserved, ownedUpload, complete, outcomeOf, discard, known, reportBatchOf };
}

export type ResumableUploads = ReturnType<typeof createResumableUploads>;
