import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePart10 } from '../dicom/part10';
import { MG_FOR_PRESENTATION_SOP_CLASS } from '../dicom/synthetic-mg';
import { calendarDate, inspectDicomFile } from './dicom-header';

const directory = mkdtempSync(path.join(tmpdir(), 'dicom-header-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function inspectBytes(bytes: Uint8Array, name = 'image.dcm') {
  const file = path.join(directory, `${Math.random().toString(36).slice(2)}.dcm`);
  writeFileSync(file, bytes);
  return inspectDicomFile(file, bytes.length, name);
}

const SOP_INSTANCE = '1.2.826.0.1.3680043.10.1.42';

/** An MG image whose header holds `references` items before the pixel data (each about 100 bytes). */
function imageWithLongHeader(references: number, pixelBytes = 4096): Uint8Array {
  const dataset = {
    SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
    SOPInstanceUID: SOP_INSTANCE,
    StudyInstanceUID: '1.2.826.0.1.3680043.10.1.1',
    SeriesInstanceUID: '1.2.826.0.1.3680043.10.1.2',
    Modality: 'MG',
    StudyDate: '20240229',
    ReferencedImageSequence: Array.from({ length: references }, (_, index) => ({
      ReferencedSOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
      ReferencedSOPInstanceUID: `1.2.826.0.1.3680043.10.2.${index}`,
    })),
    Rows: 32,
    Columns: pixelBytes / 64,
    BitsAllocated: 16,
    PixelData: [new Uint8Array(pixelBytes).buffer],
    _vrMap: { PixelData: 'OW' },
  };
  return writePart10(dataset, MG_FOR_PRESENTATION_SOP_CLASS, SOP_INSTANCE);
}

describe('inspectDicomFile', () => {
  it('reads a header far longer than the first slice by reading more of the file', async () => {
    const bytes = imageWithLongHeader(3000);
    expect(bytes.length).toBeGreaterThan(200 * 1024);
    expect(await inspectBytes(bytes)).toEqual({
      kind: 'image',
      header: {
        sopClassUid: MG_FOR_PRESENTATION_SOP_CLASS,
        sopInstanceUid: SOP_INSTANCE,
        studyInstanceUid: '1.2.826.0.1.3680043.10.1.1',
        seriesInstanceUid: '1.2.826.0.1.3680043.10.1.2',
        modality: 'MG',
        studyDate: '2024-02-29',
      },
    });
  });

  it('refuses an image whose pixel data the file does not hold in full', async () => {
    const bytes = imageWithLongHeader(10);
    expect(await inspectBytes(bytes.subarray(0, bytes.length - 1))).toEqual({ kind: 'refused', reason: 'unreadable' });
  });

  it('refuses a file cut inside its header as unreadable', async () => {
    const bytes = imageWithLongHeader(3000);
    expect(await inspectBytes(bytes.subarray(0, 150 * 1024))).toEqual({ kind: 'refused', reason: 'unreadable' });
  });

  it('refuses a file shorter than the marker, or with another marker, as not DICOM', async () => {
    expect(await inspectBytes(new Uint8Array(100))).toEqual({ kind: 'refused', reason: 'not_dicom' });
    const bytes = Buffer.from(imageWithLongHeader(1));
    bytes.write('DICX', 128, 'latin1');
    expect(await inspectBytes(bytes)).toEqual({ kind: 'refused', reason: 'not_dicom' });
  });

  it('takes a file named DICOMDIR in any folder and case for a directory', async () => {
    const bytes = imageWithLongHeader(1);
    expect(await inspectBytes(bytes, 'disc/DICOM/dicomdir')).toEqual({ kind: 'refused', reason: 'dicomdir' });
    expect((await inspectBytes(bytes, 'disc/DICOMDIR.dcm')).kind).toBe('image');
  });
});

describe('calendarDate', () => {
  it('turns DA values into ISO dates and drops what is no day', () => {
    expect(calendarDate('20040119')).toBe('2004-01-19');
    expect(calendarDate('2004.01.19')).toBe('2004-01-19');
    expect(calendarDate('20230229')).toBeNull();
    expect(calendarDate('00000000')).toBeNull();
    expect(calendarDate('2004')).toBeNull();
    expect(calendarDate(undefined)).toBeNull();
  });
});
