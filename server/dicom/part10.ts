import dcmjs from 'dcmjs';
import { uidFromName } from './uids';

const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
/** Identifies the portal as the writer of the file (PS3.10 file meta information). */
const IMPLEMENTATION_CLASS_UID = uidFromName('mammography-patient-portal/implementation');
const IMPLEMENTATION_VERSION_NAME = 'MAMMO_PORTAL_1';

/** A naturalized dcmjs dataset as a Part 10 file: 128-byte preamble, `DICM`, file meta, explicit VR LE body. */
export function writePart10(dataset: Record<string, unknown>, sopClassUid: string, sopInstanceUid: string): Uint8Array {
  const { DicomDict, DicomMetaDictionary } = dcmjs.data;
  const meta = DicomMetaDictionary.denaturalizeDataset({
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: sopClassUid,
    MediaStorageSOPInstanceUID: sopInstanceUid,
    TransferSyntaxUID: EXPLICIT_VR_LITTLE_ENDIAN,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION_NAME,
  });
  const dict = new DicomDict(meta);
  dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  return new Uint8Array(dict.write());
}
