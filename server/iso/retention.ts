import type { Db } from '../db';
import type { FileStorage } from '../lib/storage';
import { namedIsoKeys, removeDoneImagesBuiltBefore, removeDoneImagesOfPatient } from './repo';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the built images older than `retentionDays`: the rows become `removed` first, so no
 * download starts on a file about to go, and the result page offers "generate" again (spec
 * section 4). Answers how many were removed.
 */
export async function removeExpiredIsoImages(db: Db, storage: FileStorage, now: Date, retentionDays: number): Promise<number> {
  const keys = await removeDoneImagesBuiltBefore(db, new Date(now.getTime() - retentionDays * DAY_MS));
  await removeIsoFiles(storage, keys);
  return keys.length;
}

/** Deletes disc image files no row names (a build killed between writing and recording): answers how many. */
export function removeOrphanIsoFiles(db: Db, storage: FileStorage, now: Date): Promise<number> {
  return storage.removeUnnamed('iso', (keys) => namedIsoKeys(db, keys), now.getTime());
}

/**
 * Called after DICOMweb STOW-RS stored new DICOM instances of a patient (her own uploads drop her
 * discs in the transaction that stores them: doneImagesOfPatientRemovedWhen): each built image of
 * her screenings becomes `removed` and its file is deleted, so the next generation includes the
 * new files. An image still waiting reads the instances when its build starts; a build already
 * running checks them again when it ends (build.ts).
 */
export async function invalidatePatientIsoImages(db: Db, storage: FileStorage, personalDataId: number): Promise<void> {
  await removeIsoFiles(storage, await removeDoneImagesOfPatient(db, personalDataId));
}

/** Deletes the files of built images whose rows are `removed` already (their keys as the update answered them). */
export async function removeIsoFiles(storage: FileStorage, keys: string[]): Promise<void> {
  // A download already streaming keeps its open file; new ones find the row removed.
  for (const key of keys) await storage.remove(key);
}
