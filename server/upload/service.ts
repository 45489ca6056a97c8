import { open } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { UploadLimits, UploadOutcome, UploadRefusalReason, UploadedStudiesResponse } from '../../common/types/upload';
import { DICOM_MARKER_OFFSET } from '../../common/types/upload';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { errorForLog, type Logger } from '../lib/logger';
import { removeIsoFiles } from '../iso';
import { writeAudit } from '../lib/audit';
import { AppError, notFound } from '../lib/errors';
import type { FileStorage } from '../lib/storage';
import { inspectDicomFile, type DicomHeader } from './dicom-header';
import type { ReceivedFile } from './multipart';
import { insertUploadedInstances, lockUploadsOf, personalDataIdOf, uploadedStudies, type NewInstance } from './repo';
import { quotaUsage } from './resumable/repo';

export type UploadDeps = { db: Db; storage: FileStorage; config: Pick<Config, 'upload'>; clock: Clock; logger: Logger };
/** What every step of an upload works against: the database, the file store and the upload limits. */
type UploadStore = { db: Db; storage: FileStorage; limits: Config['upload']; clock: Clock; logger: Logger };
export type Uploader = { userId: number; personalDataId: number; ip: string | undefined };

type Candidate = { file: ReceivedFile; header: DicomHeader };

/**
 * The patient behind a patient-portal session; an account without a person cannot exist, but answer 404 if it does.
 * `readWithSession`: her person as the session's read found it (auth/session-store.ts), when it did.
 */
async function uploaderOf(db: Db, userId: number, ip: string | undefined, readWithSession?: number | null): Promise<Uploader> {
  const personalDataId = readWithSession ?? (await personalDataIdOf(db, userId));
  if (personalDataId === undefined) throw notFound();
  return { userId, personalDataId, ip };
}

/** What became of one received file: each is stored, a duplicate, or refused with its reason. */
export type FileFate = { outcome: 'stored' } | { outcome: 'duplicate' } | { outcome: 'refused'; reason: UploadRefusalReason };

/**
 * A caller's own record of the one file's fate, written with the images or not at all: by the
 * statement that stores them (`stored`: SQL, true when it stored the image; else a duplicate), or
 * alone with the fate when the file was refused before (no image to store).
 */
export type RecordFate = (db: Knex, fate: FileFate | { stored: Knex.Raw }) => Knex.QueryBuilder;

/**
 * How a caller takes part in the transaction: `recordFate` keeps its own record of the outcome
 * of its single file; `auditedLater` leaves the DICOM_UPLOAD entry to it (a resumable upload is
 * one file of a pick, and the pick gets one entry: resumable/batch-audit.ts); `reserved`, SQL
 * for bytes reserved against her quota besides her images, which the quota check then counts
 * (and a refusal names as `reservedBytes`).
 */
export type KeepOptions = { recordFate?: RecordFate; auditedLater?: boolean; reserved?: (db: Knex) => Knex.Raw };

/**
 * The one check-and-store of received files, for a multipart batch and for one resumable upload
 * alike (DECISIONS.md 15): the marker at 128-131 (a DICOMDIR is skipped), the header parsed, the
 * preamble zeroed, a SOP instance stored once, the quota checked under the patient's lock, and
 * the rows, the renames into the store, her built disc images dropped and one DICOM_UPLOAD audit
 * entry in one transaction. If anything fails, the renamed files are removed again, so the files
 * leave either all of their images or none. Answers the fate of each file, in the order of
 * `files`; files it did not store stay where they were, for the caller to remove.
 */
async function keepReceivedFiles(
  deps: UploadStore,
  uploader: Uploader,
  files: ReceivedFile[],
  { recordFate, auditedLater = false, reserved }: KeepOptions = {},
): Promise<FileFate[]> {
  if (recordFate && files.length !== 1) throw new Error('a record of one fate is for one file');
  const fates: FileFate[] = [];
  const candidates = new Map<string, Candidate & { index: number }>();
  for (const [index, file] of files.entries()) {
    if (file.unnameable) {
      fates[index] = { outcome: 'refused', reason: 'bad_name' };
      continue;
    }
    const inspection = await inspectDicomFile(file.path, file.size, file.clientName, file.head);
    if (inspection.kind === 'refused') fates[index] = { outcome: 'refused', reason: inspection.reason };
    else if (candidates.has(inspection.header.sopInstanceUid)) fates[index] = { outcome: 'duplicate' };
    else candidates.set(inspection.header.sopInstanceUid, { file, header: inspection.header, index });
  }
  // A receiver that kept a file's head wrote its preamble blank already (multipart.ts, resumable/file-store.ts).
  for (const { file } of candidates.values()) if (!file.head) await zeroPreamble(file.path);

  const audit = (trx: Knex.Transaction) =>
    writeAudit(trx, {
      type: 'DICOM_UPLOAD',
      ip: uploader.ip,
      userId: uploader.userId,
      description: `stored ${count(fates, 'stored')}, duplicates ${count(fates, 'duplicate')}, refused ${count(fates, 'refused')}`,
    });
  if (candidates.size === 0) {
    // Every file refused: nothing to store, so neither her lock nor her quota; the records alone.
    await deps.db.transaction(async (trx) => {
      if (!auditedLater) await audit(trx);
      if (recordFate) await recordFate(trx, fates[0]!);
    });
    return fates;
  }

  const adopted: string[] = [];
  let staleDiscKeys: string[] = [];
  try {
    await deps.db.transaction(async (trx) => {
      await lockUploadsOf(trx, uploader.userId);
      const rows: (NewInstance & { file: ReceivedFile })[] = [...candidates.values()].map(({ file, header }) => ({
        ...header,
        file,
        storageKey: deps.storage.newKey('dicom', '.dcm'),
        sizeBytes: file.size,
      }));
      // Inserted first and checked after, in one round trip fewer under her lock: over the quota,
      // the transaction is rolled back and none of it stays.
      const { usedBytesBefore, reservedBytes, inserted, droppedDiscKeys } = await insertUploadedInstances(
        trx,
        uploader.personalDataId,
        uploader.userId,
        rows,
        { record: recordFate && ((stored) => recordFate(trx, { stored })), reserved: reserved?.(trx) },
      );
      const fresh = rows.filter((row) => inserted.has(row.sopInstanceUid));
      checkQuota(deps.limits, usedBytesBefore, fresh, reserved ? reservedBytes : undefined);
      staleDiscKeys = droppedDiscKeys;
      for (const { header, index } of candidates.values()) {
        fates[index] = { outcome: inserted.has(header.sopInstanceUid) ? 'stored' : 'duplicate' };
      }
      const renames = async () => {
        for (const row of fresh) {
          await deps.storage.adopt(row.file.path, row.storageKey);
          adopted.push(row.storageKey);
        }
      };
      // The renames and the audit entry at the same time: her lock is held for the longer of the
      // two, not for both. Both have ended before the transaction does (a failure of one does not
      // leave the other writing into a rolled-back transaction), and the catch below removes what
      // was renamed.
      for (const result of await Promise.allSettled([renames(), auditedLater ? undefined : audit(trx)])) {
        if (result.status === 'rejected') throw result.reason;
      }
    });
  } catch (error) {
    for (const key of adopted) await deps.storage.remove(key);
    throw error;
  }
  // The rows of her built discs are `removed` with the images committed; a file left behind
  // (logged) is nobody's to serve, and the sweep of unnamed disc files takes it.
  await removeIsoFiles(deps.storage, staleDiscKeys).catch((error: unknown) =>
    deps.logger.error({ err: errorForLog(error) }, 'files of dropped disc images not removed after upload'),
  );
  return fates;
}

const count = (fates: FileFate[], outcome: FileFate['outcome']) => fates.filter((fate) => fate.outcome === outcome).length;

/** The answer of `POST /api/dicom`: every file of the request counted exactly once. */
async function storeUpload(deps: UploadStore, uploader: Uploader, files: ReceivedFile[]): Promise<UploadOutcome> {
  const fates = await keepReceivedFiles(deps, uploader, files);
  const outcome: UploadOutcome = { stored: 0, duplicates: 0, refused: [] };
  for (const [index, fate] of fates.entries()) {
    if (fate.outcome === 'stored') outcome.stored += 1;
    else if (fate.outcome === 'duplicate') outcome.duplicates += 1;
    else outcome.refused.push({ name: files[index]!.clientName, reason: fate.reason });
  }
  return outcome;
}

/** `reservedBytes`: what unfinished resumable uploads hold, when the caller counts them (KeepOptions.reserved). */
function checkQuota(limits: Config['upload'], usedBytes: number, fresh: NewInstance[], reservedBytes?: number): void {
  const addedBytes = fresh.reduce((sum, { sizeBytes }) => sum + sizeBytes, 0);
  if (usedBytes + (reservedBytes ?? 0) + addedBytes > limits.quotaBytes) {
    throw new AppError(413, 'UPLOAD_QUOTA_EXCEEDED', {
      quotaBytes: limits.quotaBytes,
      usedBytes,
      ...(reservedBytes !== undefined && { reservedBytes }),
    });
  }
}

/**
 * The 128-byte preamble is free for any use and may carry executable content (PS3.10 7.5): it is
 * overwritten with zeros in place, before the file is renamed into the store; no copy is made.
 */
async function zeroPreamble(filePath: string): Promise<void> {
  const handle = await open(filePath, 'r+');
  try {
    await handle.write(Buffer.alloc(DICOM_MARKER_OFFSET), 0, DICOM_MARKER_OFFSET, 0);
  } finally {
    await handle.close();
  }
}

async function limitsFor(deps: UploadStore, uploader: Uploader): Promise<UploadLimits> {
  return {
    maxFileBytes: deps.limits.maxFileBytes,
    maxFilesPerRequest: deps.limits.maxFilesPerRequest,
    maxRequestBytes: deps.limits.maxRequestBytes,
    quotaBytes: deps.limits.quotaBytes,
    ...(await quotaUsage(deps.db, uploader.personalDataId, new Date(deps.clock()))),
  };
}

async function studiesOf(deps: UploadStore, uploader: Uploader): Promise<UploadedStudiesResponse> {
  return { studies: await uploadedStudies(deps.db, uploader.personalDataId) };
}

export type UploadService = ReturnType<typeof createUploadService>;

export function createUploadService({ db, storage, config, clock, logger }: UploadDeps) {
  const store: UploadStore = { db, storage, limits: config.upload, clock, logger };
  return {
    limits: store.limits,
    incomingDir: storage.incomingDir,
    uploaderOf: (userId: number, ip: string | undefined, readWithSession?: number | null) => uploaderOf(db, userId, ip, readWithSession),
    store: (uploader: Uploader, files: ReceivedFile[]) => storeUpload(store, uploader, files),
    keep: (uploader: Uploader, files: ReceivedFile[], options?: KeepOptions) => keepReceivedFiles(store, uploader, files, options),
    limitsFor: (uploader: Uploader) => limitsFor(store, uploader),
    studiesOf: (uploader: Uploader) => studiesOf(store, uploader),
  };
}
