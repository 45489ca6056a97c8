import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { synthesizeScreeningStudy, type SyntheticImage } from '../dicom/synthetic-mg';
import type { FileStorage } from '../lib/storage';

export type StoredInstance = { id: string; storageKey: string; bytes: Uint8Array };

/**
 * Stores a file and its dicom_instances row as the provider's intake and the demo seed do: no view
 * tags, so the images listing has to read them from the file.
 */
export async function storeInstance(
  db: Db,
  storage: FileStorage,
  row: {
    personalDataId: number;
    screeningId: number | null;
    bytes: Uint8Array;
    studyInstanceUid: string;
    studyDate: string | null;
    modality?: string | null;
    sopInstanceUid?: string;
  },
): Promise<StoredInstance> {
  const storageKey = storage.newKey('dicom', '.dcm');
  await storage.writeFile(storageKey, row.bytes);
  const [inserted] = await db('dicom_instances')
    .insert({
      personal_data_id: row.personalDataId,
      screening_id: row.screeningId,
      sop_instance_uid: row.sopInstanceUid ?? `2.25.${BigInt(`0x${randomUUID().replace(/-/g, '')}`)}`,
      sop_class_uid: '1.2.840.10008.5.1.4.1.1.1.2',
      study_instance_uid: row.studyInstanceUid,
      series_instance_uid: `${row.studyInstanceUid}.1`,
      modality: row.modality === undefined ? 'MG' : row.modality,
      study_date: row.studyDate,
      storage_key: storageKey,
      size_bytes: row.bytes.length,
    })
    .returning<{ id: string }[]>('id');
  return { id: inserted!.id, storageKey, bytes: row.bytes };
}

/** The four synthetic views of one screening, for a patient whose id makes them unique. */
export function screeningViews(patientId: string, examinedAt: string): SyntheticImage[] {
  return synthesizeScreeningStudy({
    patient: { firstName: 'Test', lastName: 'Obrazy', birthAt: '1970-01-01', patientId },
    examinedAt: new Date(examinedAt),
    accessionNumber: `ACC-${patientId}`,
  });
}

/** Stores a screening's images in the given order of views (e.g. shuffled), answering their ids by view name ("RCC"). */
export async function storeScreeningViews(
  db: Db,
  storage: FileStorage,
  screening: { personalDataId: number; screeningId: number },
  images: SyntheticImage[],
): Promise<Record<string, StoredInstance>> {
  const stored: Record<string, StoredInstance> = {};
  for (const image of images) {
    stored[`${image.view.laterality}${image.view.position}`] = await storeInstance(db, storage, {
      ...screening,
      bytes: image.bytes,
      studyInstanceUid: image.studyInstanceUid,
      studyDate: image.studyDate,
      sopInstanceUid: image.sopInstanceUid,
    });
  }
  return stored;
}
