import type { Readable } from 'node:stream';
import dcmjs from 'dcmjs';
import { writeDicomDir, type DicomDirImage, type DicomDirPatient, type DicomDirSeries, type DicomDirStudy } from './dicomdir';

/** A stored image and the reads of its bytes (`FileStorage.readBytes`/`openRead` of its key). */
export type StoredImage = {
  size: number;
  readBytes(start: number, length: number): Promise<Buffer>;
  open(): Promise<Readable>;
};
type FileSetImage = { fileId: string[]; stored: StoredImage };
export type DicomFileSet = { images: FileSetImage[]; dicomdir: Uint8Array };

/** Enough for the header of any image we store; larger headers fall back to reading the file. */
const HEADER_READ_BYTES = 1024 * 1024;
const PIXEL_DATA_TAG = '7FE00010';

type ImageHeader = {
  stored: StoredImage;
  patient: Omit<DicomDirPatient, 'studies'>;
  study: Omit<DicomDirStudy, 'series'>;
  series: Omit<DicomDirSeries, 'images'>;
  image: Omit<DicomDirImage, 'fileId'>;
};

/**
 * The screening's images as a DICOM file-set (PS3.10): each file gets a file id
 * DICOM/STnnnnnn/SEnnnnnn/IMnnnnnn by its study, series and instance number, and a DICOMDIR
 * describes them. Only the headers are read here, one file at a time.
 */
type SeriesGroup = { directory: string; record: DicomDirSeries };
type StudyGroup = { directory: string; record: DicomDirStudy; series: Map<string, SeriesGroup> };
type PatientGroup = { record: DicomDirPatient; studies: Map<string, StudyGroup> };

export async function buildDicomFileSet(stored: StoredImage[], fileSetId: string): Promise<DicomFileSet> {
  const headers: ImageHeader[] = [];
  for (const image of stored) headers.push(await readImageHeader(image));
  headers.sort(
    (a, b) =>
      a.study.studyInstanceUid.localeCompare(b.study.studyInstanceUid) ||
      Number(a.series.seriesNumber) - Number(b.series.seriesNumber) ||
      a.series.seriesInstanceUid.localeCompare(b.series.seriesInstanceUid) ||
      Number(a.image.instanceNumber) - Number(b.image.instanceNumber),
  );

  const patients = new Map<string, PatientGroup>();
  const images: FileSetImage[] = [];
  let studyCount = 0;
  for (const header of headers) {
    let patient = patients.get(header.patient.patientId);
    if (!patient) {
      patient = { record: { ...header.patient, studies: [] }, studies: new Map() };
      patients.set(header.patient.patientId, patient);
    }
    let study = patient.studies.get(header.study.studyInstanceUid);
    if (!study) {
      studyCount += 1;
      study = {
        directory: `ST${pad(studyCount)}`,
        record: { ...header.study, studyId: header.study.studyId || String(studyCount), series: [] },
        series: new Map(),
      };
      patient.studies.set(header.study.studyInstanceUid, study);
      patient.record.studies.push(study.record);
    }
    let series = study.series.get(header.series.seriesInstanceUid);
    if (!series) {
      series = { directory: `SE${pad(study.series.size + 1)}`, record: { ...header.series, images: [] } };
      study.series.set(header.series.seriesInstanceUid, series);
      study.record.series.push(series.record);
    }
    const fileId = ['DICOM', study.directory, series.directory, `IM${pad(series.record.images.length + 1)}`];
    series.record.images.push({ ...header.image, fileId });
    images.push({ fileId, stored: header.stored });
  }
  const dicomdir = writeDicomDir(
    [...patients.values()].map((patient) => patient.record),
    fileSetId,
  );
  return { images, dicomdir };
}

function pad(value: number): string {
  return String(value).padStart(6, '0');
}

async function readImageHeader(stored: StoredImage): Promise<ImageHeader> {
  const { DicomMessage, DicomMetaDictionary } = dcmjs.data;
  const options = { untilTag: PIXEL_DATA_TAG, includeUntilTagValue: false, ignoreErrors: false };
  let dict;
  try {
    dict = DicomMessage.readFile(toArrayBuffer(await stored.readBytes(0, HEADER_READ_BYTES)), options);
  } catch {
    dict = DicomMessage.readFile(toArrayBuffer(await stored.readBytes(0, stored.size)), options);
  }
  const meta = DicomMetaDictionary.naturalizeDataset(dict.meta);
  const data = DicomMetaDictionary.naturalizeDataset(dict.dict);
  const text = (value: unknown): string => {
    const first = Array.isArray(value) ? value[0] : value;
    if (first && typeof first === 'object' && 'Alphabetic' in first) return String((first as { Alphabetic: unknown }).Alphabetic ?? '');
    return first === undefined || first === null ? '' : String(first);
  };
  return {
    stored,
    patient: {
      patientName: text(data.PatientName),
      patientId: text(data.PatientID),
      birthDate: text(data.PatientBirthDate),
      sex: text(data.PatientSex),
    },
    study: {
      studyInstanceUid: text(data.StudyInstanceUID),
      studyDate: text(data.StudyDate),
      studyTime: text(data.StudyTime),
      studyDescription: text(data.StudyDescription),
      studyId: text(data.StudyID),
      accessionNumber: text(data.AccessionNumber),
    },
    series: {
      seriesInstanceUid: text(data.SeriesInstanceUID),
      modality: text(data.Modality),
      seriesNumber: text(data.SeriesNumber) || '1',
    },
    image: {
      sopClassUid: text(meta.MediaStorageSOPClassUID) || text(data.SOPClassUID),
      sopInstanceUid: text(meta.MediaStorageSOPInstanceUID) || text(data.SOPInstanceUID),
      transferSyntaxUid: text(meta.TransferSyntaxUID),
      instanceNumber: text(data.InstanceNumber) || '1',
    },
  };
}

function toArrayBuffer(buffer: Buffer): ArrayBuffer {
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}
