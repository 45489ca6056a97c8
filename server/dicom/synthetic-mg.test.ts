import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dcmftestAccepts } from '../../tests/support/iso-checks';
import { MG_FOR_PRESENTATION_SOP_CLASS, synthesizeScreeningStudy } from './synthetic-mg';

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
});
