import type { Knex } from 'knex';
import type { Db } from '../db';

/** The screening an instance belongs to, found by the RIS's accession number. */
export type AccessionScreening = { screeningId: number; personalDataId: number };

export async function screeningByAccession(db: Db, accessionNumber: string): Promise<AccessionScreening | undefined> {
  const row = await db('screenings').where('accession_number', accessionNumber).first('id', 'personal_data_id');
  return row && { screeningId: row.id, personalDataId: row.personal_data_id };
}

export type StowedInstance = {
  screening: AccessionScreening;
  apiKeyId: number | null;
  sopInstanceUid: string;
  sopClassUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  modality: string | null;
  studyDate: string | null;
  storageKey: string;
  sizeBytes: number;
};

/**
 * Inserts instances in one statement; answers the storage keys of those inserted (their files are
 * to be kept). An instance the patient already has (a retry, or her own upload, which then joins
 * the screening) is not inserted, nor the second of the same instance in one call.
 */
export async function insertStowedInstances(trx: Knex.Transaction, instances: StowedInstance[]): Promise<Set<string>> {
  const inserted: { storage_key: string }[] = await trx('dicom_instances')
    .insert(
      instances.map((instance) => ({
        personal_data_id: instance.screening.personalDataId,
        screening_id: instance.screening.screeningId,
        uploaded_by_user_id: null,
        stored_by_api_key_id: instance.apiKeyId,
        sop_instance_uid: instance.sopInstanceUid,
        sop_class_uid: instance.sopClassUid,
        study_instance_uid: instance.studyInstanceUid,
        series_instance_uid: instance.seriesInstanceUid,
        modality: instance.modality,
        study_date: instance.studyDate,
        storage_key: instance.storageKey,
        size_bytes: instance.sizeBytes,
      })),
    )
    .onConflict(['personal_data_id', 'sop_instance_uid'])
    .ignore()
    .returning('storage_key');
  const fresh = new Set(inserted.map((row) => row.storage_key));
  for (const instance of instances.filter((candidate) => !fresh.has(candidate.storageKey))) {
    // She uploaded this very image herself before the PACS sent it: her copy becomes the
    // screening's (on its disc image, off her upload quota); its file is kept as it is.
    await trx('dicom_instances')
      .where({ personal_data_id: instance.screening.personalDataId, sop_instance_uid: instance.sopInstanceUid })
      .whereNull('screening_id')
      .update({ screening_id: instance.screening.screeningId, stored_by_api_key_id: instance.apiKeyId });
  }
  return fresh;
}

/** What QIDO-RS may filter studies by; all optional, combined with AND. */
export type StudyFilter = {
  /** Matches personal_data.external_id, or the portal's own id of a patient without one. */
  patient?: { externalId: string; portalId: number | undefined };
  studyInstanceUids?: string[];
  accessionNumber?: string;
  /** Inclusive bounds, YYYY-MM-DD. */
  studyDateFrom?: string;
  studyDateTo?: string;
};

export type Page = { limit: number; offset: number };

type PatientColumns = { personal_data_id: number; external_id: string | null; first_name: string; last_name: string };

export type StudyRow = PatientColumns & {
  study_instance_uid: string;
  study_date: string | null;
  accession_number: string | null;
  modalities: (string | null)[];
  series: number;
  instances: number;
};

export type SeriesRow = PatientColumns & {
  study_instance_uid: string;
  series_instance_uid: string;
  study_date: string | null;
  modality: string | null;
  instances: number;
};

export type InstanceRow = PatientColumns & {
  study_instance_uid: string;
  series_instance_uid: string;
  sop_instance_uid: string;
  sop_class_uid: string;
  study_date: string | null;
  modality: string | null;
  storage_key: string;
  size_bytes: string | number;
};

function instancesWithPatient(db: Db) {
  return db('dicom_instances as d').join('personal_data as p', 'p.id', 'd.personal_data_id');
}

const PATIENT_COLUMNS = {
  personal_data_id: 'd.personal_data_id',
  external_id: 'p.external_id',
  first_name: 'p.first_name',
  last_name: 'p.last_name',
};

/**
 * Studies, one row per patient and Study Instance UID: a study UID two patients share (a copy
 * uploaded by the wrong person, a clash of two modalities) is two results. Both the screening
 * images and what patients uploaded themselves are listed.
 */
export async function searchStudies(db: Db, filter: StudyFilter, page: Page): Promise<StudyRow[]> {
  const query = instancesWithPatient(db)
    .leftJoin('screenings as s', 's.id', 'd.screening_id')
    .groupBy('d.personal_data_id', 'd.study_instance_uid', 'p.external_id', 'p.first_name', 'p.last_name')
    .select({
      ...PATIENT_COLUMNS,
      study_instance_uid: 'd.study_instance_uid',
      study_date: db.raw('max(d.study_date)'),
      accession_number: db.raw('min(s.accession_number)'),
      modalities: db.raw('array_agg(DISTINCT d.modality)'),
      series: db.raw('count(DISTINCT d.series_instance_uid)::int'),
      instances: db.raw('count(*)::int'),
    })
    .orderByRaw('max(d.study_date) DESC NULLS LAST, d.study_instance_uid, d.personal_data_id')
    .limit(page.limit)
    .offset(page.offset);
  if (filter.patient) {
    const { externalId, portalId } = filter.patient;
    query.where((where) => {
      where.where('p.external_id', externalId);
      if (portalId !== undefined) where.orWhere((orWhere) => orWhere.whereNull('p.external_id').andWhere('p.id', portalId));
    });
  }
  if (filter.studyInstanceUids) query.whereIn('d.study_instance_uid', filter.studyInstanceUids);
  if (filter.accessionNumber) query.where('s.accession_number', filter.accessionNumber);
  if (filter.studyDateFrom) query.where('d.study_date', '>=', filter.studyDateFrom);
  if (filter.studyDateTo) query.where('d.study_date', '<=', filter.studyDateTo);
  return query;
}

export async function searchSeries(db: Db, studyInstanceUid: string, page: Page): Promise<SeriesRow[]> {
  return instancesWithPatient(db)
    .where('d.study_instance_uid', studyInstanceUid)
    .groupBy('d.personal_data_id', 'd.study_instance_uid', 'd.series_instance_uid', 'p.external_id', 'p.first_name', 'p.last_name')
    .select({
      ...PATIENT_COLUMNS,
      study_instance_uid: 'd.study_instance_uid',
      series_instance_uid: 'd.series_instance_uid',
      study_date: db.raw('max(d.study_date)'),
      modality: db.raw('min(d.modality)'),
      instances: db.raw('count(*)::int'),
    })
    .orderBy(['d.personal_data_id', 'd.series_instance_uid'])
    .limit(page.limit)
    .offset(page.offset);
}

/** The instances of a study, optionally of one series and one SOP instance, in a stable order. */
export async function findInstances(
  db: Db,
  where: { study: string; series?: string; instance?: string },
  page?: Page,
): Promise<InstanceRow[]> {
  const query = instancesWithPatient(db)
    .where('d.study_instance_uid', where.study)
    .select({
      ...PATIENT_COLUMNS,
      study_instance_uid: 'd.study_instance_uid',
      series_instance_uid: 'd.series_instance_uid',
      sop_instance_uid: 'd.sop_instance_uid',
      sop_class_uid: 'd.sop_class_uid',
      study_date: 'd.study_date',
      modality: 'd.modality',
      storage_key: 'd.storage_key',
      size_bytes: 'd.size_bytes',
    })
    .orderBy(['d.personal_data_id', 'd.series_instance_uid', 'd.created_at', 'd.sop_instance_uid']);
  if (where.series) query.where('d.series_instance_uid', where.series);
  if (where.instance) query.where('d.sop_instance_uid', where.instance);
  if (page) query.limit(page.limit).offset(page.offset);
  return query;
}
