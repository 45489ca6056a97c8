import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import dicomParser from 'dicom-parser';
import { synthesizeImage, type MammographyView, type PixelFormat } from './synthetic-mg';

/**
 * The parts of scripts/make-dicom-syntax-fixtures.sh that dcmtk and GDCM cannot do: the
 * uncompressed source image of each fixture (a synthetic mammogram, server/dicom/synthetic-mg.ts)
 * and a JPEG 2000 file whose codestream is cut after its main header (a file no decoder can draw).
 *
 *   tsx server/dicom/syntax-fixture-sources.ts source <out.dcm> <name> <instance> <bits> <MONOCHROME1|2> <R|L><CC|MLO>
 *   tsx server/dicom/syntax-fixture-sources.ts truncate-j2k <in.dcm> <out.dcm>
 */

/** All fixtures are images of one synthetic study, told apart by their SOP Instance UIDs (made from their names). */
const FIXTURE_STUDY = {
  patient: { firstName: 'Składnia', lastName: 'Testowa', birthAt: '1970-01-01', patientId: 'SYNTAX-FIXTURES' },
  examinedAt: new Date('2026-01-15T09:00:00Z'),
  accessionNumber: 'SYNTAX/2026/1',
};

/** Small enough to commit (a few hundred KB at most), large enough to look like a breast. */
const FIXTURE_MATRIX = { rows: 320, columns: 256 };

export function fixtureSource(
  name: string,
  instanceNumber: number,
  bitsStored: PixelFormat['bitsStored'],
  photometric: PixelFormat['photometric'],
  view: MammographyView,
): Uint8Array {
  return synthesizeImage(FIXTURE_STUDY, view, instanceNumber, { ...FIXTURE_MATRIX, bitsStored, photometric }, `syntax/${name}`).bytes;
}

const PIXEL_DATA = 'x7fe00010';
const SOT_MARKER = [0xff, 0x90];

/**
 * Keeps the file as it is up to its encapsulated pixel data, then writes one fragment holding the
 * codestream's main header only (SOC, SIZ, COD, QCD ... up to the first tile-part's SOT marker)
 * and the sequence delimiter: a well-formed DICOM file whose image cannot be decoded.
 */
export function truncateJ2kCodestream(file: Uint8Array): Uint8Array {
  const dataSet = dicomParser.parseDicom(file);
  const element = dataSet.elements[PIXEL_DATA];
  const fragment = element?.fragments?.[0];
  if (!element || !fragment) throw new Error('not encapsulated pixel data');
  const codestream = file.subarray(fragment.position, fragment.position + fragment.length);
  const sot = codestream.findIndex((byte, index) => byte === SOT_MARKER[0] && codestream[index + 1] === SOT_MARKER[1]);
  if (sot <= 0) throw new Error('no tile-part in the codestream');
  const header = codestream.subarray(0, sot + (sot % 2)); // item values have even lengths
  // The pixel data element's own header (tag, VR, reserved, undefined length) stays: 12 bytes before its value.
  const kept = file.subarray(0, element.dataOffset);
  const emptyOffsetTable = item(new Uint8Array(0));
  const delimiter = new Uint8Array([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0]);
  return concat([kept, emptyOffsetTable, item(header), delimiter]);
}

function item(value: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint16(0, 0xfffe, true);
  view.setUint16(2, 0xe000, true);
  view.setUint32(4, value.length, true);
  return concat([head, value]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function parseView(text: string): MammographyView {
  const match = /^([RL])(CC|MLO)$/.exec(text);
  if (!match) throw new Error(`view must be R or L then CC or MLO: ${text}`);
  return { laterality: match[1] as MammographyView['laterality'], position: match[2] as MammographyView['position'] };
}

function main(args: string[]): void {
  const [command, ...rest] = args;
  if (command === 'source' && rest.length === 6) {
    const [out, name, instance, bits, photometric, view] = rest as [string, string, string, string, string, string];
    if (bits !== '8' && bits !== '12' && bits !== '16') throw new Error(`bits must be 8, 12 or 16: ${bits}`);
    if (photometric !== 'MONOCHROME1' && photometric !== 'MONOCHROME2') throw new Error(`not a photometric interpretation: ${photometric}`);
    writeFileSync(out, fixtureSource(name, Number(instance), Number(bits) as PixelFormat['bitsStored'], photometric, parseView(view)));
  } else if (command === 'truncate-j2k' && rest.length === 2) {
    const [input, out] = rest as [string, string];
    writeFileSync(out, truncateJ2kCodestream(readFileSync(input)));
  } else {
    throw new Error('usage: source <out> <name> <instance> <bits> <photometric> <view> | truncate-j2k <in> <out>');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
