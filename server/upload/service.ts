import { open } from 'node:fs/promises';
import type { UploadLimits, UploadOutcome, UploadedStudiesResponse } from '../../common/types/upload';
import { DICOM_MARKER_OFFSET } from '../../common/types/upload';
import type { Config } from '../config';
import type { Db } from '../db';
import { invalidatePatientIsoImages } from '../iso';
import { writeAudit } from '../lib/audit';
import { AppError, notFound } from '../lib/errors';
import type { FileStorage } from '../lib/storage';
import { inspectDicomFile, type DicomHeader } from './dicom-header';
import type { ReceivedFile } from './multipart';
import {
  insertUploadedInstances,
  knownInstances,
  lockUploadsOf,
  personalDataIdOf,
  uploadedBytes,
  uploadedStudies,
  type NewInstance,
} from './repo';

export type UploadDeps = { db: Db; storage: FileStorage; config: Pick<Config, 'upload'> };
/** What every step of an upload works against: the database, the file store and the upload limits. */
type UploadStore = { db: Db; storage: FileStorage; limits: Config['upload'] };
export type Uploader = { userId: number; personalDataId: number; ip: string | undefined };

type Candidate = { file: ReceivedFile; header: DicomHeader };

/** The patient behind a patient-portal session; an account without a person cannot exist, but answer 404 if it does. */
async function uploaderOf(db: Db, userId: number, ip: string | undefined): Promise<Uploader> {
  const personalDataId = await personalDataIdOf(db, userId);
  if (personalDataId === undefined) throw notFound();
  return { userId, personalDataId, ip };
}

/**
 * Keeps the storable images of one request (DECISIONS.md 15) and accounts for every file exactly
 * once: stored, duplicate or refused with its reason. All rows are written in one transaction and
 * the files renamed into the store inside it; if anything fails, the renamed files are removed
 * again, so the request leaves either all of its images or none.
 */
async function storeUpload(deps: UploadStore, uploader: Uploader, files: ReceivedFile[]): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { stored: 0, duplicates: 0, refused: [] };
  const candidates = new Map<string, Candidate>();
  for (const file of files) {
    const inspection = await inspectDicomFile(file.path, file.size, file.clientName);
    if (inspection.kind === 'refused') outcome.refused.push({ name: file.clientName, reason: inspection.reason });
    else if (candidates.has(inspection.header.sopInstanceUid)) outcome.duplicates += 1;
    else candidates.set(inspection.header.sopInstanceUid, { file, header: inspection.header });
  }
  for (const { file } of candidates.values()) await zeroPreamble(file.path);

  const adopted: string[] = [];
  try {
    outcome.stored = await deps.db.transaction(async (trx) => {
      await lockUploadsOf(trx, uploader.userId);
      const known = await knownInstances(trx, uploader.personalDataId, [...candidates.keys()]);
      const fresh = [...candidates.values()].filter(({ header }) => !known.has(header.sopInstanceUid));
      await checkQuota(trx, deps.limits, uploader.personalDataId, fresh);
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
      outcome.duplicates += candidates.size - inserted.size;
      await writeAudit(trx, {
        type: 'DICOM_UPLOAD',
        ip: uploader.ip,
        userId: uploader.userId,
        description: `stored ${inserted.size}, duplicates ${outcome.duplicates}, refused ${outcome.refused.length}`,
      });
      return inserted.size;
    });
  } catch (error) {
    for (const key of adopted) await deps.storage.remove(key);
    throw error;
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

async function checkQuota(db: Db, limits: Config['upload'], personalDataId: number, fresh: Candidate[]): Promise<void> {
  const usedBytes = await uploadedBytes(db, personalDataId);
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
    usedBytes: await uploadedBytes(deps.db, uploader.personalDataId),
  };
}

async function studiesOf(deps: UploadStore, uploader: Uploader): Promise<UploadedStudiesResponse> {
  return { studies: await uploadedStudies(deps.db, uploader.personalDataId) };
}

export function createUploadService({ db, storage, config }: UploadDeps) {
  const store: UploadStore = { db, storage, limits: config.upload };
  return {
    limits: store.limits,
    incomingDir: storage.incomingDir,
    uploaderOf: (userId: number, ip: string | undefined) => uploaderOf(db, userId, ip),
    store: (uploader: Uploader, files: ReceivedFile[]) => storeUpload(store, uploader, files),
    refreshDiscImages: (uploader: Uploader) => refreshDiscImages(store, uploader),
    limitsFor: (uploader: Uploader) => limitsFor(store, uploader),
    studiesOf: (uploader: Uploader) => studiesOf(store, uploader),
  };
}
