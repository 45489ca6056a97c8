import type { DataSet } from 'dicom-parser';

/**
 * What STOW-RS reads of an instance beyond what the upload's inspection reads
 * (server/upload/dicom-header.ts): the accession number that names the screening, the transfer
 * syntax the file claims, and whether its pixel data is framed as that syntax says. The SOP UIDs
 * are read too, best effort, so even a refused instance can be named in the answer.
 */
export type StowHeader = {
  accessionNumber: string | undefined;
  transferSyntaxUid: string | undefined;
  sopClassUid: string | undefined;
  sopInstanceUid: string | undefined;
  /** Undefined without pixel data; true when it is encapsulated (undefined length, fragments). */
  encapsulatedPixelData: boolean | undefined;
};

const PIXEL_DATA = 'x7fe00010';

/** Transfer syntaxes whose pixel data is native (a value of defined length): PS3.5 A.1 to A.5. */
const NATIVE_TRANSFER_SYNTAXES = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.1.99', '1.2.840.10008.1.2.2']);

/** Read from the header the upload's inspection parsed (`Inspection.dataSet`): it is parsed once. */
export function stowHeaderOf(dataSet: DataSet): StowHeader {
  const pixelData = dataSet.elements[PIXEL_DATA];
  return {
    accessionNumber: trimmed(dataSet.string('x00080050')),
    transferSyntaxUid: trimmed(dataSet.string('x00020010')),
    sopClassUid: trimmed(dataSet.string('x00080016') ?? dataSet.string('x00020002')),
    sopInstanceUid: trimmed(dataSet.string('x00080018') ?? dataSet.string('x00020003')),
    encapsulatedPixelData: pixelData && (pixelData.hadUndefinedLength === true || pixelData.length === 0xffffffff),
  };
}

/**
 * A transfer syntax claim is wrong when the pixel data is not framed as the syntax says:
 * encapsulated under a native syntax, or native under a compressed one.
 */
export function pixelDataMatchesTransferSyntax(header: StowHeader): boolean {
  if (header.encapsulatedPixelData === undefined || header.transferSyntaxUid === undefined) return true;
  return header.encapsulatedPixelData !== NATIVE_TRANSFER_SYNTAXES.has(header.transferSyntaxUid);
}

function trimmed(value: string | undefined): string | undefined {
  const result = value?.trim();
  return result ? result : undefined;
}
