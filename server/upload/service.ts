import { open } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { UploadLimits, UploadOutcome, UploadRefusalReason, UploadedStudiesResponse } from '../../common/types/upload';
import { DICOM_MARKER_OFFSET } from '../../common/types/upload';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { invalidatePatientIsoImages } from '../iso';
import { writeAudit } from '../lib/audit';
import { AppError, notFound } from '../lib/errors';
import type { FileStorage } from '../lib/storage';
import { inspectDicomFile, type DicomHeader } from './dicom-header';
import type { ReceivedFile } from './multipart';
import { insertUploadedInstances, lockUploadsOf, personalDataIdOf, uploadedStudies, usageAndKnown, type NewInstance } from './repo';
import { quotaUsage } from './resumable/repo';

export type UploadDeps = { db: Db; storage: FileStorage; config: Pick<Config, 'upload'>; clock: Clock; logger: Logger };
/** What every step of an upload works against: the database, the file store and the upload limits. */
type UploadStore = { db: Db; storage: FileStorage; limits: Config['upload']; clock: Clock };
export type Uploader = { userId: number; personalDataId: number; ip: string | undefined };

type Candidate = { file: ReceivedFile; header: DicomHeader };

/** The patient behind a patient-portal session; an account without a person cannot exist, but answer 404 if it does. */
async function uploaderOf(db: Db, userId: number, ip: string | undefined): Promise<Uploader> {
  const personalDataId = await personalDataIdOf(db, userId);
  if (personalDataId === undefined) throw notFound();
  return { userId, personalDataId, ip };
}

/** What became of one received file: each is stored, a duplicate, or refused with its reason. */
export type FileFate = { outcome: 'stored' } | { outcome: 'duplicate' } | { outcome: 'refused'; reason: UploadRefusalReason };

/**
 * Runs inside the transaction that stores the files, with the fate of each: a caller's own record
 * of the outcome commits with the images or not at all.
 */
type RecordFates = (trx: Knex.Transaction, fates: FileFate[]) => Promise<void>;

/**
 * How a caller takes part in the transaction: `recordFates` keeps its own record of the outcome;
 * `auditedLater` leaves the DICOM_UPLOAD entry to it (a resumable upload is one file of a pick,
 * and the pick gets one entry: resumable/batch-audit.ts).
 */
export type KeepOptions = { recordFates?: RecordFates; auditedLater?: boolean };

/**
 * The one check-and-store of received files, for a multipart batch and for one resumable upload
 * alike (DECISIONS.md 15): the marker at 128-131 (a DICOMDIR is skipped), the header parsed, the
 * preamble zeroed, a SOP instance stored once, the quota checked under the patient's lock, and
 * the rows, the renames into the store and one DICOM_UPLOAD audit entry in one transaction. If
 * anything fails, the renamed files are removed again, so the files leave either all of their
 * images or none. Answers the fate of each file, in the order of `files`; files it did not store
 * stay where they were, for the caller to remove.
 */
async function keepReceivedFiles(
  deps: UploadStore,
  uploader: Uploader,
  files: ReceivedFile[],
  { recordFates, auditedLater = false }: KeepOptions = {},
): Promise<FileFate[]> {
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
  // The multipart receiver wrote its files' preambles blank already (a file with its head).
  for (const { file } of candidates.values()) if (!file.head) await zeroPreamble(file.path);

  const adopted: string[] = [];
  try {
    await deps.db.transaction(async (trx) => {
      await lockUploadsOf(trx, uploader.userId);
      const { usedBytes, known } = await usageAndKnown(trx, uploader.personalDataId, [...candidates.keys()]);
      const fresh = [...candidates.values()].filter(({ header }) => !known.has(header.sopInstanceUid));
      checkQuota(deps.limits, usedBytes, fresh);
      const rows: (NewInstance & { file: ReceivedFile })[] = fresh.map(({ file, header }) => ({
        ...header,
        file,
        storageKey: deps.storage.newKey('dicom', '.dcm'),
        sizeBytes: file.size,
      }));
      const inserted = await insertUploadedInstances(trx, uploader.personalDataId, uploader.userId, rows);
      for (const row of rows.filter((row) => inserted.has(row.sopInstanceUid))) {
        await deps.storage.adopt(row.file.path, row.storageKey);
        adopted.push(row.storageKey);
      }
      for (const { header, index } of candidates.values()) {
        fates[index] = { outcome: inserted.has(header.sopInstanceUid) ? 'stored' : 'duplicate' };
      }
      const count = (outcome: FileFate['outcome']) => fates.filter((fate) => fate.outcome === outcome).length;
      if (!auditedLater) {
        await writeAudit(trx, {
          type: 'DICOM_UPLOAD',
          ip: uploader.ip,
          userId: uploader.userId,
          description: `stored ${count('stored')}, duplicates ${count('duplicate')}, refused ${count('refused')}`,
        });
      }
      await recordFates?.(trx, fates);
    });
  } catch (error) {
    for (const key of adopted) await deps.storage.remove(key);
    throw error;
  }
  return fates;
}

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

/**
 * New images belong on every disc image of the patient's screenings, so the built ones are
 * dropped (server/iso). The upload itself is already committed when this runs.
 */
async function refreshDiscImages(deps: UploadStore, uploader: Uploader): Promise<void> {
  await invalidatePatientIsoImages(deps.db, deps.storage, uploader.personalDataId);
}

function checkQuota(limits: Config['upload'], usedBytes: number, fresh: Candidate[]): void {
  const addedBytes = fresh.reduce((sum, { file }) => sum + file.size, 0);
  if (usedBytes + addedBytes > limits.quotaBytes) {
    throw new AppError(413, 'UPLOAD_QUOTA_EXCEEDED', { quotaBytes: limits.quotaBytes, usedBytes });
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

export function createUploadService({ db, storage, config, clock }: UploadDeps) {
  const store: UploadStore = { db, storage, limits: config.upload, clock };
  return {
    limits: store.limits,
    incomingDir: storage.incomingDir,
    uploaderOf: (userId: number, ip: string | undefined) => uploaderOf(db, userId, ip),
    store: (uploader: Uploader, files: ReceivedFile[]) => storeUpload(store, uploader, files),
    keep: (uploader: Uploader, files: ReceivedFile[], options?: KeepOptions) => keepReceivedFiles(store, uploader, files, options),
    refreshDiscImages: (uploader: Uploader) => refreshDiscImages(store, uploader),
    limitsFor: (uploader: Uploader) => limitsFor(store, uploader),
    studiesOf: (uploader: Uploader) => studiesOf(store, uploader),
  };
}
