import dcmjs from 'dcmjs';
import { mapInParallel } from '../lib/parallel';
import { writeDicomDir, type DicomDirImage, type DicomDirPatient, type DicomDirSeries, type DicomDirStudy } from './dicomdir';

/** A stored image: its key, its size, and the reads of its header (`FileStorage.readBytes` of the key). */
export type StoredImage = {
  key: string;
  size: number;
  readBytes(start: number, length: number): Promise<Buffer>;
};
type FileSetImage = { fileId: string[]; stored: StoredImage };
export type DicomFileSet = { images: FileSetImage[]; dicomdir: Uint8Array };

/**
 * The header is read in growing slices from the start of the file: the first holds almost every
 * header; only a header longer than the second costs a read of the whole file.
 */
const HEADER_READS = [64 * 1024, 1024 * 1024];
const PIXEL_DATA_TAG = '7FE00010';
/** Headers read at once: the store answers several reads in parallel (an object store especially). */
const PARALLEL_READS = 8;

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
 * describes them. Only the headers are read here.
 */
type SeriesGroup = { directory: string; record: DicomDirSeries };
type StudyGroup = { directory: string; record: DicomDirStudy; series: Map<string, SeriesGroup> };
type PatientGroup = { record: DicomDirPatient; studies: Map<string, StudyGroup> };

export async function buildDicomFileSet(stored: StoredImage[], fileSetId: string): Promise<DicomFileSet> {
  const headers = await mapInParallel(stored, PARALLEL_READS, readImageHeader);
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

/**
 * The elements before the pixel data. A slice that ends between two elements parses without
 * error, so a read is complete only when the parser reached the pixel data or the file's end.
 */
function parseHeader(bytes: Buffer, wholeFile: boolean) {
  const { DicomMessage } = dcmjs.data;
  try {
    const parsed = DicomMessage.readFile(toArrayBuffer(bytes), {
      untilTag: PIXEL_DATA_TAG,
      includeUntilTagValue: false,
      ignoreErrors: false,
    });
    return wholeFile || PIXEL_DATA_TAG in parsed.dict ? parsed : undefined;
  } catch (error) {
    if (wholeFile) throw error;
    return undefined;
  }
}

async function readImageHeader(stored: StoredImage): Promise<ImageHeader> {
  const { DicomMetaDictionary } = dcmjs.data;
  let dict;
  for (const length of [...HEADER_READS.filter((bytes) => bytes < stored.size), stored.size]) {
    dict = parseHeader(await stored.readBytes(0, length), length === stored.size);
    if (dict) break;
  }
  if (!dict) throw new Error('DICOM header not read');
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
