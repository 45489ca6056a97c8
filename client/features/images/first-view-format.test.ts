import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePart10 } from '../../../server/dicom/part10';
import { DICOM_CORPUS_DIR } from '../../../tests/support/dicom-corpus';
import { readPreviewHeader, type PreviewFormat } from './first-view-format';

const SYNTAXES = path.join(DICOM_CORPUS_DIR, '..', 'dicom-syntaxes');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(SYNTAXES, name)));

function formatOf(bytes: Uint8Array): PreviewFormat | null {
  const read = readPreviewHeader(bytes, true);
  if (read.kind !== 'read') throw new Error('the whole file was given');
  return read.format;
}

/** A 2×2 MONOCHROME2 image of 16 bits with the given extra tags, as a Part 10 file. */
function imageWith(tags: Record<string, unknown>): Uint8Array {
  return writePart10(
    {
      SOPClassUID: '1.2.840.10008.5.1.4.1.1.1.2',
      SOPInstanceUID: '1.2.3.4',
      SamplesPerPixel: 1,
      PhotometricInterpretation: 'MONOCHROME2',
      Rows: 2,
      Columns: 2,
      BitsAllocated: 16,
      BitsStored: 12,
      HighBit: 11,
      PixelRepresentation: 0,
      ...tags,
      PixelData: [new Uint16Array([0, 1000, 2000, 4095]).buffer],
      _vrMap: { PixelData: 'OW' },
    },
    '1.2.840.10008.5.1.4.1.1.1.2',
    '1.2.3.4',
  );
}

describe('readPreviewHeader', () => {
  it('reads the uncompressed little-endian fixtures, the way cornerstone will show them', () => {
    for (const name of ['explicit-vr-little-endian.dcm', 'implicit-vr-little-endian.dcm', 'uncompressed-16bit.dcm']) {
      expect(formatOf(fixture(name)), name).toMatchObject({ rows: 320, columns: 256, bitsAllocated: 16, invert: false });
    }
    expect(formatOf(fixture('uncompressed-8bit.dcm'))).toMatchObject({ bitsAllocated: 8, invert: false });
    // Dense tissue stored low: shown inverted, as cornerstone shows MONOCHROME1.
    expect(formatOf(fixture('monochrome1.dcm'))).toMatchObject({ invert: true });
  });

  it('leaves every compressed or big-endian image to cornerstone alone', () => {
    for (const name of [
      'explicit-vr-big-endian.dcm',
      'jpeg-baseline-8bit.dcm',
      'jpeg-2000-lossless-16bit.dcm',
      'rle-lossless.dcm',
      'undecodable-jpeg-2000.dcm',
    ]) {
      expect(formatOf(fixture(name)), name).toBeNull();
    }
  });

  it('finds where the pixels start and the patient orientation used to hang the image', () => {
    const bytes = fixture('uncompressed-16bit.dcm');
    const format = formatOf(bytes)!;
    expect(bytes.length - format.pixelOffset).toBe(320 * 256 * 2);
    expect(format.patientOrientation).toMatch(/^[APHFLR]+\\[APHFLR]+$/);
  });

  it('asks for more bytes while the header is cut off, and gives up once there are no more', () => {
    const bytes = fixture('explicit-vr-little-endian.dcm');
    const headerEnd = formatOf(bytes)!.pixelOffset;
    expect(readPreviewHeader(bytes.subarray(0, headerEnd - 20), false)).toEqual({ kind: 'more' });
    expect(readPreviewHeader(bytes.subarray(0, headerEnd - 20), true)).toEqual({ kind: 'read', format: null });
    // The pixels' own header is enough: the picture is made from the rows as they come.
    expect(readPreviewHeader(bytes.subarray(0, headerEnd), false)).toMatchObject({ kind: 'read', format: { rows: 320 } });
  });

  it("opens with the image's own window, as cornerstone's LINEAR and LINEAR_EXACT ranges", () => {
    expect(formatOf(imageWith({ WindowCenter: '2048', WindowWidth: '4096' }))?.window).toEqual({ lower: 0, upper: 4095 });
    expect(formatOf(imageWith({ WindowCenter: ['1000', '500'], WindowWidth: ['200', '100'] }))?.window).toEqual({
      lower: 900,
      upper: 1099,
    });
    expect(formatOf(imageWith({ WindowCenter: '1000', WindowWidth: '200', VOILUTFunction: 'LINEAR_EXACT' }))?.window).toEqual({
      lower: 900,
      upper: 1100,
    });
    // Without a window cornerstone takes the pixels' range, which the picture finds as it reads them.
    expect(formatOf(imageWith({}))?.window).toBeNull();
  });

  it('leaves to cornerstone what a linear window cannot imitate', () => {
    expect(formatOf(imageWith({ WindowCenter: '1000', WindowWidth: '200', VOILUTFunction: 'SIGMOID' }))).toBeNull();
    expect(formatOf(imageWith({ PixelSpacing: ['0.1', '0.2'] }))).toBeNull();
    expect(formatOf(imageWith({ PhotometricInterpretation: 'RGB', SamplesPerPixel: 3 }))).toBeNull();
    expect(formatOf(imageWith({ PixelSpacing: ['0.1', '0.1'], RescaleSlope: '2', RescaleIntercept: '-100' }))).toMatchObject({
      slope: 2,
      intercept: -100,
    });
  });
});
