import { describe, expect, it } from 'vitest';
import { writePart10 } from '../dicom/part10';
import { MG_FOR_PRESENTATION_SOP_CLASS } from '../dicom/synthetic-mg';
import { buildDicomFileSet, type StoredImage } from './dicom-file-set';

/**
 * An MG image of patient `name` (a patient of her own) whose header holds `references` items (about 100 bytes each)
 * before the patient's and the study's elements, so a short read of the header misses them.
 */
function imageWithLongHeader(name: string, instance: number, references: number): Buffer {
  const sopInstanceUid = `1.2.826.0.1.3680043.10.1.42.${instance}`;
  const dataset = {
    SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
    SOPInstanceUID: sopInstanceUid,
    ReferencedImageSequence: Array.from({ length: references }, (_, index) => ({
      ReferencedSOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
      ReferencedSOPInstanceUID: `1.2.826.0.1.3680043.10.2.${index}`,
    })),
    PatientName: name,
    PatientID: `P${instance}`,
    StudyInstanceUID: '1.2.826.0.1.3680043.10.1.1',
    SeriesInstanceUID: '1.2.826.0.1.3680043.10.1.2',
    Modality: 'MG',
    InstanceNumber: String(instance),
    Rows: 32,
    Columns: 64,
    BitsAllocated: 16,
    PixelData: [new Uint8Array(4096).buffer],
    _vrMap: { PixelData: 'OW' },
  };
  return Buffer.from(writePart10(dataset, MG_FOR_PRESENTATION_SOP_CLASS, sopInstanceUid));
}

/** A stored image held in memory, recording how many bytes each read asked for. */
function inMemory(key: string, bytes: Buffer, reads: number[]): StoredImage {
  return {
    key,
    size: bytes.length,
    readBytes: async (start, length) => {
      reads.push(length);
      return bytes.subarray(start, start + length);
    },
  };
}

describe('the DICOM file-set of a disc', () => {
  it('reads a short header in one small read, and longer ones in growing reads, never missing an element', async () => {
    const images = [
      imageWithLongHeader('Short^Header', 1, 10),
      imageWithLongHeader('Long^Header', 2, 3000),
      imageWithLongHeader('Huge^Header', 3, 15000),
    ];
    expect(images.map((image) => image.length)).toEqual([
      expect.toSatisfy((length: number) => length < 64 * 1024),
      expect.toSatisfy((length: number) => length > 64 * 1024 && length < 1024 * 1024),
      expect.toSatisfy((length: number) => length > 1024 * 1024),
    ]);
    const reads = images.map(() => [] as number[]);
    const fileSet = await buildDicomFileSet(
      images.map((image, index) => inMemory(`dicom/${index}.dcm`, image, reads[index]!)),
      'MAMMOGRAFIA',
    );
    // A read never asks past the file's end.
    const [short, long, huge] = images.map((image) => image.length) as [number, number, number];
    expect(reads).toEqual([[short], [64 * 1024, long], [64 * 1024, 1024 * 1024, huge]]);
    const dicomdir = Buffer.from(fileSet.dicomdir).toString('latin1');
    for (const name of ['Short^Header', 'Long^Header', 'Huge^Header']) expect(dicomdir).toContain(name);
    expect(fileSet.images.map((image) => [image.fileId.join('/'), image.stored.key])).toEqual([
      ['DICOM/ST000001/SE000001/IM000001', 'dicom/0.dcm'],
      ['DICOM/ST000002/SE000001/IM000001', 'dicom/1.dcm'],
      ['DICOM/ST000003/SE000001/IM000001', 'dicom/2.dcm'],
    ]);
  });
});
