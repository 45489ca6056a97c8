import { open, type FileHandle } from 'node:fs/promises';
import dicomParser, { type DataSet } from 'dicom-parser';

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
const FIRST_READ_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

/** Transfer syntaxes whose pixel data is native (a value of defined length): PS3.5 A.1 to A.5. */
const NATIVE_TRANSFER_SYNTAXES = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.1.99', '1.2.840.10008.1.2.2']);

export async function readStowHeader(filePath: string, size: number): Promise<StowHeader | undefined> {
  const handle = await open(filePath, 'r');
  try {
    const dataSet = await readHeader(handle, size);
    if (!dataSet) return undefined;
    const pixelData = dataSet.elements[PIXEL_DATA];
    return {
      accessionNumber: trimmed(dataSet.string('x00080050')),
      transferSyntaxUid: trimmed(dataSet.string('x00020010')),
      sopClassUid: trimmed(dataSet.string('x00080016') ?? dataSet.string('x00020002')),
      sopInstanceUid: trimmed(dataSet.string('x00080018') ?? dataSet.string('x00020003')),
      encapsulatedPixelData: pixelData && (pixelData.hadUndefinedLength === true || pixelData.length === 0xffffffff),
    };
  } finally {
    await handle.close();
  }
}

/**
 * A transfer syntax claim is wrong when the pixel data is not framed as the syntax says:
 * encapsulated under a native syntax, or native under a compressed one.
 */
export function pixelDataMatchesTransferSyntax(header: StowHeader): boolean {
  if (header.encapsulatedPixelData === undefined || header.transferSyntaxUid === undefined) return true;
  return header.encapsulatedPixelData !== NATIVE_TRANSFER_SYNTAXES.has(header.transferSyntaxUid);
}

async function readHeader(handle: FileHandle, size: number): Promise<DataSet | undefined> {
  let length = Math.min(size, FIRST_READ_BYTES);
  for (;;) {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    const dataSet = tryParse(buffer.subarray(0, bytesRead));
    const wholeFile = length === size;
    if (dataSet && (dataSet.elements[PIXEL_DATA] || wholeFile)) return dataSet;
    if (wholeFile || length >= MAX_HEADER_BYTES) return dataSet;
    length = Math.min(size, length * 4, MAX_HEADER_BYTES);
  }
}

function tryParse(bytes: Buffer): DataSet | undefined {
  try {
    return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
  } catch (error) {
    // dicom-parser throws strings and objects too; a partial data set still names the instance.
    const partial = (error as { dataSet?: DataSet } | undefined)?.dataSet;
    return partial;
  }
}

function trimmed(value: string | undefined): string | undefined {
  const result = value?.trim();
  return result ? result : undefined;
}
