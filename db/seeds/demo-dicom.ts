import type { Knex } from 'knex';
import { synthesizeScreeningStudy, type SyntheticImage } from '../../server/dicom/synthetic-mg';
import type { Config } from '../../server/config';
import { storageFromConfig } from '../../server/lib/storage-from-config';
import { ANNA, KATARZYNA, type DemoPatient, type DemoScreening } from './demo-people';

/** Demo screenings with images: the result-portal one and each of Anna's. */
const PATIENTS_WITH_IMAGES: DemoPatient[] = [KATARZYNA, ANNA];

export type StoredDemoImage = SyntheticImage & { storageKey: string };
export type PreparedDemoDicom = Array<{ pesel: string; examinedAt: string; images: StoredDemoImage[] }>;

/**
 * Writes four synthetic mammograms per demo screening into the configured store (`dicom/`). Files
 * cannot roll back with the seed's transaction, so they are written first, under keys made from
 * their SOP Instance UIDs: seeding again rewrites the same files instead of leaving strays.
 */
export async function writeDemoDicom(config: Pick<Config, 'dataDir' | 'storage'>): Promise<PreparedDemoDicom> {
  const storage = storageFromConfig(config);
  const prepared: PreparedDemoDicom = [];
  for (const patient of PATIENTS_WITH_IMAGES) {
    for (const screening of patient.screenings) {
      const images: StoredDemoImage[] = [];
      for (const image of synthesize(patient, screening)) {
        const storageKey = `dicom/${image.sopInstanceUid}.dcm`;
        await storage.writeFile(storageKey, image.bytes);
        images.push({ ...image, storageKey });
      }
      prepared.push({ pesel: patient.pesel, examinedAt: screening.examinedAt, images });
    }
  }
  return prepared;
}

function synthesize(patient: DemoPatient, screening: DemoScreening): SyntheticImage[] {
  return synthesizeScreeningStudy({
    patient: { firstName: patient.firstName, lastName: patient.lastName, birthAt: patient.birthAt, patientId: patient.pesel },
    examinedAt: new Date(screening.examinedAt),
    accessionNumber: screening.accessionNumber,
  });
}

/** One dicom_instances row per image, linked to its screening; inside the seed's transaction. */
export async function insertDemoDicom(trx: Knex.Transaction, prepared: PreparedDemoDicom): Promise<void> {
  for (const { pesel, examinedAt, images } of prepared) {
    const screening = await trx('screenings as s')
      .join('personal_data as p', 'p.id', 's.personal_data_id')
      .where('p.pesel', pesel)
      .andWhere('s.examined_at', new Date(examinedAt))
      .first('s.id', 's.personal_data_id');
    if (!screening) throw new Error(`Demo screening of ${examinedAt} is missing`);
    await trx('dicom_instances').insert(
      images.map((image) => ({
        personal_data_id: screening.personal_data_id,
        screening_id: screening.id,
        sop_instance_uid: image.sopInstanceUid,
        sop_class_uid: image.sopClassUid,
        study_instance_uid: image.studyInstanceUid,
        series_instance_uid: image.seriesInstanceUid,
        modality: image.modality,
        study_date: image.studyDate,
        storage_key: image.storageKey,
        size_bytes: image.bytes.length,
      })),
    );
  }
}
