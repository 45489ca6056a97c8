/**
 * The DICOM JSON model (PS3.18 F.2): what QIDO-RS and STOW-RS answer, as `application/dicom+json`.
 * Each attribute is keyed by its tag in upper-case hex; an empty value has no `Value`.
 */
export type DicomJsonAttribute = { vr: string; Value?: unknown[] };
export type DicomJsonDataset = Record<string, DicomJsonAttribute>;

export const DICOM_JSON = 'application/dicom+json';

export const TAGS = {
  accessionNumber: '00080050',
  failedSopSequence: '00081198',
  failureReason: '00081197',
  modalitiesInStudy: '00080061',
  modality: '00080060',
  numberOfSeriesRelatedInstances: '00201209',
  numberOfStudyRelatedInstances: '00201208',
  numberOfStudyRelatedSeries: '00201206',
  patientId: '00100020',
  patientName: '00100010',
  referencedSopClassUid: '00081150',
  referencedSopInstanceUid: '00081155',
  referencedSopSequence: '00081199',
  retrieveUrl: '00081190',
  seriesInstanceUid: '0020000E',
  sopClassUid: '00080016',
  sopInstanceUid: '00080018',
  studyDate: '00080020',
  studyInstanceUid: '0020000D',
} as const;

/** A string attribute; null, undefined or '' become an empty attribute. */
export function text(vr: string, value: string | null | undefined): DicomJsonAttribute {
  return value === null || value === undefined || value === '' ? { vr } : { vr, Value: [value] };
}

export function texts(vr: string, values: readonly string[]): DicomJsonAttribute {
  return values.length === 0 ? { vr } : { vr, Value: [...values] };
}

export function number(vr: string, value: number): DicomJsonAttribute {
  return { vr, Value: [value] };
}

export function personName(alphabetic: string | null): DicomJsonAttribute {
  return alphabetic ? { vr: 'PN', Value: [{ Alphabetic: alphabetic }] } : { vr: 'PN' };
}

export function sequence(items: readonly DicomJsonDataset[]): DicomJsonAttribute {
  return items.length === 0 ? { vr: 'SQ' } : { vr: 'SQ', Value: [...items] };
}

/** DA: YYYYMMDD from the database's YYYY-MM-DD (or a Date at midnight UTC). */
export function dicomDate(value: string | Date | null): DicomJsonAttribute {
  if (value === null) return { vr: 'DA' };
  const iso = typeof value === 'string' ? value : value.toISOString().slice(0, 10);
  return { vr: 'DA', Value: [iso.slice(0, 10).replace(/-/g, '')] };
}
