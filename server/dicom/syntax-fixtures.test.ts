import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dicomParser from 'dicom-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectDicomFile } from '../upload/dicom-header';
import { MG_FOR_PRESENTATION_SOP_CLASS } from './synthetic-mg';

/**
 * tests/fixtures/dicom-syntaxes (scripts/make-dicom-syntax-fixtures.sh): each file is what its
 * README row says, as dicom-parser and, when installed, dcmtk and GDCM read it.
 */
const DIR = fileURLToPath(new URL('../../tests/fixtures/dicom-syntaxes', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'syntax-fixtures-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = { file: string; syntax: string; bits: number; photometric: string; laterality: string; view: string };

const EXPECTED: Row[] = [
  ['explicit-vr-little-endian', '1.2.840.10008.1.2.1', 12, 'MONOCHROME2', 'R CC'],
  ['implicit-vr-little-endian', '1.2.840.10008.1.2', 12, 'MONOCHROME2', 'L CC'],
  ['explicit-vr-big-endian', '1.2.840.10008.1.2.2', 12, 'MONOCHROME2', 'R MLO'],
  ['jpeg-baseline-8bit', '1.2.840.10008.1.2.4.50', 8, 'MONOCHROME2', 'L MLO'],
  ['jpeg-extended-12bit', '1.2.840.10008.1.2.4.51', 12, 'MONOCHROME2', 'R CC'],
  ['jpeg-lossless-sv1', '1.2.840.10008.1.2.4.70', 12, 'MONOCHROME2', 'L CC'],
  ['jpeg-ls-lossless-16bit', '1.2.840.10008.1.2.4.80', 16, 'MONOCHROME2', 'R MLO'],
  ['jpeg-ls-near-lossless', '1.2.840.10008.1.2.4.81', 12, 'MONOCHROME2', 'L MLO'],
  ['jpeg-2000-lossless-16bit', '1.2.840.10008.1.2.4.90', 16, 'MONOCHROME2', 'R CC'],
  ['jpeg-2000-lossy', '1.2.840.10008.1.2.4.91', 12, 'MONOCHROME2', 'L CC'],
  ['rle-lossless', '1.2.840.10008.1.2.5', 12, 'MONOCHROME2', 'R MLO'],
  ['monochrome1', '1.2.840.10008.1.2.1', 12, 'MONOCHROME1', 'L MLO'],
  ['uncompressed-8bit', '1.2.840.10008.1.2.1', 8, 'MONOCHROME2', 'R CC'],
  ['uncompressed-16bit', '1.2.840.10008.1.2.1', 16, 'MONOCHROME2', 'L CC'],
  ['undecodable-jpeg-2000', '1.2.840.10008.1.2.4.90', 16, 'MONOCHROME2', 'R MLO'],
].map(([name, syntax, bits, photometric, view]) => {
  const [laterality, position] = String(view).split(' ') as [string, string];
  return { file: `${name}.dcm`, syntax: String(syntax), bits: Number(bits), photometric: String(photometric), laterality, view: position };
});
const UNDECODABLE = 'undecodable-jpeg-2000.dcm';
const ENCAPSULATED = (syntax: string) => syntax.startsWith('1.2.840.10008.1.2.4.') || syntax === '1.2.840.10008.1.2.5';

const hasTool = (tool: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const parse = (file: string) => dicomParser.parseDicom(readFileSync(path.join(DIR, file)));

describe('DICOM syntax fixtures', () => {
  it('are the files of the README table, one per row, each small', () => {
    const readme = readFileSync(path.join(DIR, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| [^|]+ \| (\d+) \| (MONOCHROME[12]) \| ([RL]) (\w+) \|$/gm)].map(
      ([, file, syntax, bits, photometric, laterality, view]) => ({ file, syntax, bits: Number(bits), photometric, laterality, view }),
    );
    expect(rows).toEqual(EXPECTED);
    expect(
      readdirSync(DIR)
        .filter((name) => name.endsWith('.dcm'))
        .sort(),
    ).toEqual(EXPECTED.map((row) => row.file).sort());
    for (const row of EXPECTED) expect(statSync(path.join(DIR, row.file)).size).toBeLessThan(200_000);
  });

  it.each(EXPECTED)('$file has its transfer syntax, depth, photometric and view, 256×320, as dicom-parser reads it', (row) => {
    const dataSet = parse(row.file);
    expect(dataSet.string('x00020010')).toBe(row.syntax);
    expect(dataSet.string('x00080016')).toBe(MG_FOR_PRESENTATION_SOP_CLASS);
    expect(dataSet.uint16('x00280101')).toBe(row.bits);
    expect(dataSet.uint16('x00280100')).toBe(row.bits === 8 ? 8 : 16);
    expect(dataSet.string('x00280004')).toBe(row.photometric);
    expect(dataSet.string('x00200062')).toBe(row.laterality);
    expect(dataSet.string('x00185101')).toBe(row.view);
    expect([dataSet.uint16('x00280011'), dataSet.uint16('x00280010')]).toEqual([256, 320]);
    const pixelData = dataSet.elements.x7fe00010!;
    if (ENCAPSULATED(row.syntax)) expect(pixelData.encapsulatedPixelData).toBe(true);
    else expect(pixelData.length).toBe(256 * 320 * (row.bits === 8 ? 1 : 2));
  });

  it('are images of one study, each with its own SOP Instance UID, that the upload would store', async () => {
    const dataSets = EXPECTED.map((row) => parse(row.file));
    expect(new Set(dataSets.map((dataSet) => dataSet.string('x0020000d'))).size).toBe(1);
    expect(new Set(dataSets.map((dataSet) => dataSet.string('x00080018'))).size).toBe(EXPECTED.length);
    for (const row of EXPECTED) {
      const file = path.join(DIR, row.file);
      expect(await inspectDicomFile(file, statSync(file).size, row.file), row.file).toMatchObject({ kind: 'image' });
    }
  });

  it('keeps only the main header of the undecodable codestream: SOC and SIZ, no tile-part', () => {
    const dataSet = parse(UNDECODABLE);
    const fragments = dataSet.elements.x7fe00010!.fragments!;
    expect(fragments).toHaveLength(1);
    const codestream = Buffer.from(dataSet.byteArray.subarray(fragments[0]!.position, fragments[0]!.position + fragments[0]!.length));
    expect([...codestream.subarray(0, 4)]).toEqual([0xff, 0x4f, 0xff, 0x51]);
    expect(codestream.includes(Buffer.from([0xff, 0x90]))).toBe(false);
  });

  it.runIf(hasTool('dcmdump'))('are read by dcmtk, which finds the same transfer syntax', () => {
    for (const row of EXPECTED) {
      const text = execFileSync('dcmdump', ['-q', '-Un', '+P', '0002,0010', path.join(DIR, row.file)], { encoding: 'utf8' });
      expect(text, row.file).toContain(`[${row.syntax}]`);
    }
  });

  it.runIf(hasTool('gdcmconv'))('decode with GDCM, all but the undecodable one', () => {
    for (const row of EXPECTED) {
      const decoded = path.join(scratch, row.file);
      let ok = true;
      try {
        execFileSync('gdcmconv', ['--raw', path.join(DIR, row.file), decoded], { stdio: 'ignore' });
      } catch {
        ok = false;
      }
      expect([row.file, ok]).toEqual([row.file, row.file !== UNDECODABLE]);
    }
  });
});
