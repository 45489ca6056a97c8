import dicomParser from 'dicom-parser';
import { writePart10 } from '../dicom/part10';
import { uidFromUuid } from '../dicom/uids';

const MEDIA_STORAGE_DIRECTORY_SOP_CLASS = '1.2.840.10008.1.3.10';

export type DicomDirImage = {
  /** PS3.10 file id components, e.g. ['DICOM', 'ST000001', 'SE000001', 'IM000001']. */
  fileId: string[];
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  instanceNumber: string;
};
export type DicomDirSeries = { seriesInstanceUid: string; modality: string; seriesNumber: string; images: DicomDirImage[] };
export type DicomDirStudy = {
  studyInstanceUid: string;
  studyDate: string;
  studyTime: string;
  studyDescription: string;
  studyId: string;
  accessionNumber: string;
  series: DicomDirSeries[];
};
export type DicomDirPatient = { patientName: string; patientId: string; birthDate: string; sex: string; studies: DicomDirStudy[] };

type DirectoryRecord = { dataset: Record<string, unknown>; children: DirectoryRecord[] };

/** The offsets are UL numbers in the dictionary's "up" VR, which dcmjs only writes when told. */
const OFFSET_VRS = {
  OffsetOfTheNextDirectoryRecord: 'UL',
  OffsetOfReferencedLowerLevelDirectoryEntity: 'UL',
  OffsetOfTheFirstDirectoryRecordOfTheRootDirectoryEntity: 'UL',
  OffsetOfTheLastDirectoryRecordOfTheRootDirectoryEntity: 'UL',
};
const CHARACTER_SET = 'ISO_IR 192';

/**
 * A DICOMDIR (Media Storage Directory, PS3.3 F) with PATIENT -> STUDY -> SERIES -> IMAGE records.
 * Every record points at its next sibling and its first child by the byte offset of the record's
 * item tag from the start of the file. Offsets are fixed-size numbers, so the file is written once
 * with zeros, the item positions are read back from those bytes, and it is written again with the
 * offsets filled in: same layout, right numbers.
 */
export function writeDicomDir(patients: DicomDirPatient[], fileSetId: string): Uint8Array {
  const roots = patients.map(patientRecord);
  const ordered: DirectoryRecord[] = [];
  const visit = (record: DirectoryRecord) => {
    ordered.push(record);
    record.children.forEach(visit);
  };
  roots.forEach(visit);

  const sopInstanceUid = uidFromUuid();
  const draft = serialize(ordered, fileSetId, sopInstanceUid);
  const offsets = itemOffsets(draft);
  if (offsets.length !== ordered.length) throw new Error('DICOMDIR records do not match the written items');
  const offsetOf = new Map(ordered.map((record, index) => [record, offsets[index]!]));

  const link = (siblings: DirectoryRecord[]) => {
    siblings.forEach((record, index) => {
      const next = siblings[index + 1];
      record.dataset.OffsetOfTheNextDirectoryRecord = next ? offsetOf.get(next) : 0;
      record.dataset.OffsetOfReferencedLowerLevelDirectoryEntity = record.children[0] ? offsetOf.get(record.children[0]) : 0;
      link(record.children);
    });
  };
  link(roots);
  const final = serialize(ordered, fileSetId, sopInstanceUid, {
    first: roots[0] ? offsetOf.get(roots[0])! : 0,
    last: roots.length > 0 ? offsetOf.get(roots[roots.length - 1]!)! : 0,
  });
  if (final.length !== draft.length) throw new Error('DICOMDIR layout changed between passes');
  return final;
}

function serialize(records: DirectoryRecord[], fileSetId: string, sopInstanceUid: string, root = { first: 0, last: 0 }): Uint8Array {
  const dataset = {
    FileSetID: fileSetId,
    OffsetOfTheFirstDirectoryRecordOfTheRootDirectoryEntity: root.first,
    OffsetOfTheLastDirectoryRecordOfTheRootDirectoryEntity: root.last,
    FileSetConsistencyFlag: 0,
    DirectoryRecordSequence: records.map((record) => record.dataset),
    _vrMap: OFFSET_VRS,
  };
  return writePart10(dataset, MEDIA_STORAGE_DIRECTORY_SOP_CLASS, sopInstanceUid);
}

/** Byte offset of each directory record's item tag, in file order. */
function itemOffsets(bytes: Uint8Array): number[] {
  const items = dicomParser.parseDicom(bytes).elements.x00041220?.items ?? [];
  // An item's data starts after its 8-byte header (tag FFFE,E000 and length).
  return items.map((item) => item.dataOffset - 8);
}

function record(type: string, fields: Record<string, unknown>, children: DirectoryRecord[] = []): DirectoryRecord {
  return {
    dataset: {
      OffsetOfTheNextDirectoryRecord: 0,
      RecordInUseFlag: 0xffff,
      OffsetOfReferencedLowerLevelDirectoryEntity: 0,
      DirectoryRecordType: type,
      SpecificCharacterSet: CHARACTER_SET,
      ...fields,
      _vrMap: OFFSET_VRS,
    },
    children,
  };
}

function patientRecord(patient: DicomDirPatient): DirectoryRecord {
  return record(
    'PATIENT',
    { PatientName: patient.patientName, PatientID: patient.patientId, PatientBirthDate: patient.birthDate, PatientSex: patient.sex },
    patient.studies.map(studyRecord),
  );
}

function studyRecord(study: DicomDirStudy): DirectoryRecord {
  return record(
    'STUDY',
    {
      StudyDate: study.studyDate,
      StudyTime: study.studyTime,
      StudyDescription: study.studyDescription,
      StudyInstanceUID: study.studyInstanceUid,
      StudyID: study.studyId,
      AccessionNumber: study.accessionNumber,
    },
    study.series.map(seriesRecord),
  );
}

function seriesRecord(series: DicomDirSeries): DirectoryRecord {
  return record(
    'SERIES',
    { Modality: series.modality, SeriesInstanceUID: series.seriesInstanceUid, SeriesNumber: series.seriesNumber },
    series.images.map(imageRecord),
  );
}

function imageRecord(image: DicomDirImage): DirectoryRecord {
  return record('IMAGE', {
    ReferencedFileID: image.fileId,
    ReferencedSOPClassUIDInFile: image.sopClassUid,
    ReferencedSOPInstanceUIDInFile: image.sopInstanceUid,
    ReferencedTransferSyntaxUIDInFile: image.transferSyntaxUid,
    InstanceNumber: image.instanceNumber,
  });
}
