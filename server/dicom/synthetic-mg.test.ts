import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dcmftestAccepts } from '../../tests/support/iso-checks';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import dicomParser from 'dicom-parser';
import { LARGE_MAMMOGRAM_FORMAT, MG_FOR_PRESENTATION_SOP_CLASS, synthesizeLargeMammogram, synthesizeScreeningStudy } from './synthetic-mg';

const dir = mkdtempSync(path.join(tmpdir(), 'synthetic-mg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = {
  patient: { firstName: 'Katarzyna', lastName: 'Zielińska', birthAt: '1968-04-12', patientId: '68041209860' },
  examinedAt: new Date('2026-10-06T10:40:00+02:00'),
  accessionNumber: 'MMG/2026/10/04127',
};

function dump(bytes: Uint8Array): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.dcm`);
  writeFileSync(file, bytes);
  return execFileSync('dcmdump', ['-q', file], { encoding: 'utf8' });
}

/** The value dcmdump prints on the line of the named attribute: `[text]` or a binary number. */
function tag(text: string, name: string): string | undefined {
  const line = text.split('\n').find((l) => new RegExp(`#.*\\b${name}$`).test(l.trimEnd()));
  return line ? (/\[([^\]]*)\]/.exec(line)?.[1] ?? /^\(\w+,\w+\) \w\w (\d+)/.exec(line)?.[1]) : undefined;
}

describe('synthetic screening mammograms', () => {
  const images = synthesizeScreeningStudy(input);

  it('are the four screening views of one study and one series, each a DICOM Part 10 file', () => {
    expect(images.map((i) => `${i.view.laterality}${i.view.position}`)).toEqual(['RCC', 'LCC', 'RMLO', 'LMLO']);
    expect(new Set(images.map((i) => i.studyInstanceUid)).size).toBe(1);
    expect(new Set(images.map((i) => i.sopInstanceUid)).size).toBe(4);
    for (const image of images) {
      expect(dcmftestAccepts(image.bytes)).toBe(true);
      expect(image.sopInstanceUid).toMatch(/^2\.25\.\d{1,39}$/);
      expect(image.studyDate).toBe('2026-10-06');
    }
  });

  it('carry the MG for-presentation class, 16-bit MONOCHROME2 pixels and the patient and view as dcmdump reads them', () => {
    const text = dump(images[3]!.bytes);
    expect(text).toContain('=DigitalMammographyXRayImageStorageForPresentation');
    expect(text).toContain('Little Endian Explicit');
    expect(tag(text, 'PatientName')).toBe('Zielińska^Katarzyna');
    expect(tag(text, 'PatientBirthDate')).toBe('19680412');
    expect(tag(text, 'StudyDate')).toBe('20261006');
    expect(tag(text, 'StudyTime')).toBe('104000');
    expect(tag(text, 'Modality')).toBe('MG');
    expect(tag(text, 'ImageLaterality')).toBe('L');
    expect(tag(text, 'ViewPosition')).toBe('MLO');
    expect(tag(text, 'PhotometricInterpretation')).toBe('MONOCHROME2');
    expect(tag(text, 'BitsAllocated')).toBe('16');
    expect(text).toMatch(/PixelData/);
    expect(images[3]!.sopClassUid).toBe(MG_FOR_PRESENTATION_SOP_CLASS);
  });

  it('are the same bytes for the same screening, so reseeding keeps their identity', () => {
    const again = synthesizeScreeningStudy(input);
    expect(again.map((i) => i.sopInstanceUid)).toEqual(images.map((i) => i.sopInstanceUid));
    expect(Buffer.from(again[0]!.bytes).equals(Buffer.from(images[0]!.bytes))).toBe(true);
  });

  it("are still the demo's images of before the large mammogram existed, byte for byte", () => {
    const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    expect(images.map((image) => sha256(image.bytes))).toEqual([
      'd95983614639302ff9c5cef15b0052d1f9bd9983cd62a93da585582a04ae0aac',
      'dcb36419e96908e653f9a361e38bc4d9342be6c6f44a2239d9a8c88b177c697e',
      '294d7235693324af3ed8195711465b99d1ab972be45cc0f3d126ccc8f8cadc7e',
      '9a376bfecf5f22d72cc0ef5628195623b6b7ebaa59f5e0b3c12c13c8d439898f',
    ]);
  });
});

describe('the large synthetic mammogram', () => {
  it('is a ~50 MB, 4096×6144, 16-bit single view that does not compress to nothing', () => {
    const image = synthesizeLargeMammogram(input, { laterality: 'L', position: 'MLO' });
    expect(image.bytes.length).toBeGreaterThan(50_000_000);
    expect(image.bytes.length).toBeLessThan(51_000_000);
    const screening = synthesizeScreeningStudy(input);
    expect(image.studyInstanceUid).toBe(screening[0]!.studyInstanceUid);
    expect(screening.map((i) => i.sopInstanceUid)).not.toContain(image.sopInstanceUid);

    const header = dicomParser.parseDicom(image.bytes, { untilTag: 'x7fe00010' });
    expect(header.string('x00020010')).toBe('1.2.840.10008.1.2.1');
    expect(header.string('x00080016')).toBe(MG_FOR_PRESENTATION_SOP_CLASS);
    expect(header.string('x00200062')).toBe('L');
    expect(header.string('x00185101')).toBe('MLO');
    expect(header.string('x00280004')).toBe('MONOCHROME2');
    expect([header.uint16('x00280011'), header.uint16('x00280010')]).toEqual([LARGE_MAMMOGRAM_FORMAT.columns, LARGE_MAMMOGRAM_FORMAT.rows]);
    expect([header.uint16('x00280100'), header.uint16('x00280101')]).toEqual([16, 16]);
    const pixelData = header.elements.x7fe00010!;
    expect(pixelData.length).toBe(4096 * 6144 * 2);
    expect(pixelData.dataOffset + pixelData.length).toBe(image.bytes.length);

    // A band through the breast: texture and noise, as a detector gives, so a codec has work to do.
    const band = image.bytes.subarray(pixelData.dataOffset + 3000 * 4096 * 2, pixelData.dataOffset + 3100 * 4096 * 2);
    expect(gzipSync(band, { level: 6 }).length / band.length).toBeGreaterThan(0.5);
    const pixels = new Uint16Array(band.buffer.slice(band.byteOffset, band.byteOffset + band.length));
    expect(pixels.reduce((a, b) => Math.max(a, b))).toBeGreaterThan(40_000);
    expect(pixels.reduce((a, b) => Math.min(a, b))).toBeLessThan(2_000);
  });
});
