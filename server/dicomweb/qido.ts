import { AppError } from '../lib/errors';
import { dicomDate, number, personName, TAGS, text, texts, type DicomJsonDataset } from './dicom-json';
import type { InstanceRow, Page, SeriesRow, StudyFilter, StudyRow } from './repo';

/** QIDO-RS paging (PS3.18 8.3.4.4): 100 results unless `limit` asks otherwise, at most 1000. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const UID = /^[0-9]+(\.[0-9]+)*$/;
const PORTAL_PATIENT_ID = /^portal-([1-9][0-9]{0,9})$/;

export function isUid(value: string): boolean {
  return value.length <= 64 && UID.test(value);
}

/**
 * PatientID (0010,0020) as the portal answers and matches it: the provider's own id of the patient
 * (personal_data.external_id, set by the intake API) when she has one, else `portal-<id>` with the
 * portal's own id (a patient known only to the portal, e.g. from an older import).
 */
function patientIdOf(row: { personal_data_id: number; external_id: string | null }): string {
  return row.external_id ?? `portal-${row.personal_data_id}`;
}

function patientName(row: { first_name: string; last_name: string }): string {
  return `${row.last_name}^${row.first_name}`;
}

type Query = Record<string, unknown>;

/** A matching key by keyword or by tag, e.g. `PatientID` or `00100020` (PS3.18 8.3.4.1). */
function key(query: Query, keyword: string, tag: string): string | undefined {
  const value = query[keyword] ?? query[tag] ?? query[tag.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(keyword, `${keyword} must be given once.`);
  return value;
}

function invalid(path: string, message: string): AppError {
  return new AppError(400, 'VALIDATION', { issues: [{ path, message }] });
}

export function pageOf(query: Query): Page {
  const limit = integer(query, 'limit', DEFAULT_LIMIT);
  const offset = integer(query, 'offset', 0);
  if (limit < 1 || limit > MAX_LIMIT) throw invalid('limit', `limit must be between 1 and ${MAX_LIMIT}.`);
  return { limit, offset };
}

function integer(query: Query, name: string, fallback: number): number {
  const value = query[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^[0-9]{1,9}$/.test(value)) throw invalid(name, `${name} must be a non-negative integer.`);
  return Number(value);
}

/**
 * The study matching keys the portal supports: PatientID, StudyInstanceUID (a list, comma or
 * backslash separated), AccessionNumber and StudyDate (a date or a range: `20240101-20241231`,
 * `-20241231`, `20240101-`). Other keys (includefield, fuzzymatching, ...) are ignored.
 */
export function studyFilterOf(query: Query): StudyFilter {
  const filter: StudyFilter = {};
  const patientId = key(query, 'PatientID', TAGS.patientId);
  if (patientId !== undefined && patientId !== '') {
    const portalId = PORTAL_PATIENT_ID.exec(patientId)?.[1];
    filter.patient = { externalId: patientId, portalId: portalId === undefined ? undefined : Number(portalId) };
  }
  const studyUids = key(query, 'StudyInstanceUID', TAGS.studyInstanceUid);
  if (studyUids !== undefined && studyUids !== '') {
    const uids = studyUids.split(/[,\\]/).map((uid) => uid.trim());
    if (!uids.every(isUid)) throw invalid('StudyInstanceUID', 'StudyInstanceUID must be a list of UIDs.');
    filter.studyInstanceUids = uids;
  }
  const accession = key(query, 'AccessionNumber', TAGS.accessionNumber);
  if (accession !== undefined && accession !== '') filter.accessionNumber = accession;
  const studyDate = key(query, 'StudyDate', TAGS.studyDate);
  if (studyDate !== undefined && studyDate !== '') Object.assign(filter, dateRange(studyDate));
  return filter;
}

function dateRange(value: string): Pick<StudyFilter, 'studyDateFrom' | 'studyDateTo'> {
  const match = /^(\d{8})?(-)?(\d{8})?$/.exec(value);
  if (!match || (!match[1] && !match[3])) throw invalid('StudyDate', 'StudyDate must be YYYYMMDD or a range YYYYMMDD-YYYYMMDD.');
  const [, from, dash, to] = match;
  const iso = (date: string | undefined) => date && `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
  if (!dash) return { studyDateFrom: iso(from), studyDateTo: iso(from) };
  if (from && to && from > to) throw invalid('StudyDate', 'StudyDate range must not end before it starts.');
  return { studyDateFrom: iso(from), studyDateTo: iso(to) };
}

type Urls = (path: string) => string;

function patientAttributes(row: StudyRow | SeriesRow | InstanceRow): DicomJsonDataset {
  return {
    [TAGS.patientId]: text('LO', patientIdOf(row)),
    [TAGS.patientName]: personName(patientName(row)),
  };
}

export function studyResult(row: StudyRow, url: Urls): DicomJsonDataset {
  return {
    [TAGS.studyDate]: dicomDate(row.study_date),
    [TAGS.accessionNumber]: text('SH', row.accession_number),
    [TAGS.modalitiesInStudy]: texts('CS', row.modalities.filter((modality): modality is string => modality !== null).sort()),
    [TAGS.retrieveUrl]: text('UR', url(`/studies/${row.study_instance_uid}`)),
    ...patientAttributes(row),
    [TAGS.studyInstanceUid]: text('UI', row.study_instance_uid),
    [TAGS.numberOfStudyRelatedSeries]: number('IS', row.series),
    [TAGS.numberOfStudyRelatedInstances]: number('IS', row.instances),
  };
}

export function seriesResult(row: SeriesRow, url: Urls): DicomJsonDataset {
  return {
    [TAGS.studyDate]: dicomDate(row.study_date),
    [TAGS.modality]: text('CS', row.modality),
    [TAGS.retrieveUrl]: text('UR', url(`/studies/${row.study_instance_uid}/series/${row.series_instance_uid}`)),
    ...patientAttributes(row),
    [TAGS.studyInstanceUid]: text('UI', row.study_instance_uid),
    [TAGS.seriesInstanceUid]: text('UI', row.series_instance_uid),
    [TAGS.numberOfSeriesRelatedInstances]: number('IS', row.instances),
  };
}

export function instanceResult(row: InstanceRow, url: Urls): DicomJsonDataset {
  return {
    [TAGS.sopClassUid]: text('UI', row.sop_class_uid),
    [TAGS.sopInstanceUid]: text('UI', row.sop_instance_uid),
    [TAGS.studyDate]: dicomDate(row.study_date),
    [TAGS.modality]: text('CS', row.modality),
    [TAGS.retrieveUrl]: text(
      'UR',
      url(`/studies/${row.study_instance_uid}/series/${row.series_instance_uid}/instances/${row.sop_instance_uid}`),
    ),
    ...patientAttributes(row),
    [TAGS.studyInstanceUid]: text('UI', row.study_instance_uid),
    [TAGS.seriesInstanceUid]: text('UI', row.series_instance_uid),
  };
}
