import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bsdtarFiles, dcmdumpDirectoryRecords, dcmftestAccepts, extractFromIso, xorrisoPrimaryPaths } from '../../tests/support/iso-checks';
import { synthesizeScreeningStudy } from '../dicom/synthetic-mg';
import { createFileStorage } from '../lib/storage';
import { storedImage } from './build';
import { createDiscImage } from './disc';
import { readVirtualImage } from './virtual-image';

const IMAGE_PATHS = [
  'DICOM/ST000001/SE000001/IM000001',
  'DICOM/ST000001/SE000001/IM000002',
  'DICOM/ST000001/SE000001/IM000003',
  'DICOM/ST000001/SE000001/IM000004',
];

describe('the ISO disc image of a screening', () => {
  let dataDir: string;
  let isoPath: string;
  let declaredSize: number;
  const originals = new Map<string, Buffer>();
  const instruction = Buffer.from('%PDF-1.7\n% instrukcja\n');

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'iso-disc-'));
    const storage = createFileStorage(dataDir);
    const study = synthesizeScreeningStudy({
      patient: { firstName: 'Katarzyna', lastName: 'Zielińska', birthAt: '1968-04-12', patientId: '68041209860' },
      examinedAt: new Date('2026-10-06T10:40:00+02:00'),
      accessionNumber: 'MMG/2026/10/04127',
    });
    // Stored in an order unlike the views', so the file ids must come from the DICOM headers.
    const stored = [];
    for (const image of [...study].reverse()) {
      const key = storage.newKey('dicom', '.dcm');
      await storage.writeFile(key, image.bytes);
      stored.push(storedImage(storage, key, image.bytes.length));
    }
    study.forEach((image, index) => originals.set(IMAGE_PATHS[index]!, Buffer.from(image.bytes)));
    const disc = await createDiscImage({
      images: stored,
      instruction: { name: 'Instrukcja obrazu ISO.pdf', bytes: instruction },
      publisher: 'Przykładowe Centrum Mammografii',
      examinedOn: '2026-10-06',
      createdAt: new Date('2026-10-20T12:00:00Z'),
    });
    declaredSize = disc.size;
    isoPath = path.join(dataDir, 'disc.iso');
    await pipeline(
      readVirtualImage(disc, (key, range) => storage.openRead(key, range)),
      createWriteStream(isoPath),
    );
  });

  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('is exactly as large as announced, in whole 2048-byte sectors', async () => {
    expect((await stat(isoPath)).size).toBe(declaredSize);
    expect(declaredSize % 2048).toBe(0);
  });

  it('lists the DICOM files, the DICOMDIR, the instruction under its long name and the README (bsdtar, Joliet)', () => {
    expect(bsdtarFiles(isoPath)).toEqual([...IMAGE_PATHS, 'DICOMDIR', 'Instrukcja obrazu ISO.pdf', 'README.TXT'].sort());
  });

  it('has a plain ISO 9660 tree of 8.3 names beside the Joliet one (xorriso)', () => {
    expect(xorrisoPrimaryPaths(isoPath)).toEqual([...IMAGE_PATHS, 'DICOMDIR', 'INSTRUKC.PDF', 'README.TXT'].sort());
  });

  it('holds every image byte for byte, each a valid DICOM file (dcmftest)', () => {
    for (const [file, original] of originals) {
      const extracted = extractFromIso(isoPath, file);
      expect(extracted.equals(original), file).toBe(true);
      expect(dcmftestAccepts(extracted), file).toBe(true);
    }
    expect(extractFromIso(isoPath, 'Instrukcja obrazu ISO.pdf').equals(instruction)).toBe(true);
    expect(extractFromIso(isoPath, 'README.TXT').toString('utf8')).toContain('DICOMDIR');
  });

  it('has a DICOMDIR that dcmdump reads as patient, study, series and one record per image, linked by offsets', () => {
    const dicomdir = extractFromIso(isoPath, 'DICOMDIR');
    expect(dcmftestAccepts(dicomdir)).toBe(true);
    const { root, records } = dcmdumpDirectoryRecords(dicomdir);
    expect(records.map((r) => r.type)).toEqual(['PATIENT', 'STUDY', 'SERIES', 'IMAGE', 'IMAGE', 'IMAGE', 'IMAGE']);
    const [patient, study, series, ...images] = records as [
      (typeof records)[0],
      (typeof records)[0],
      (typeof records)[0],
      ...typeof records,
    ];
    expect(root).toEqual({ first: patient.offset, last: patient.offset });
    expect(patient.lower).toBe(study.offset);
    expect(study.lower).toBe(series.offset);
    expect(series.lower).toBe(images[0]!.offset);
    expect(images.map((image) => image.next)).toEqual([images[1]!.offset, images[2]!.offset, images[3]!.offset, 0]);
    expect(images.map((image) => image.fileId)).toEqual(IMAGE_PATHS);
  });

  it('announces a primary volume descriptor and a Joliet one with the screening date as volume name', async () => {
    const image = await readFile(isoPath);
    const primary = image.subarray(16 * 2048, 17 * 2048);
    const joliet = image.subarray(17 * 2048, 18 * 2048);
    expect([primary[0], primary.subarray(1, 6).toString('ascii')]).toEqual([1, 'CD001']);
    expect(primary.subarray(40, 72).toString('ascii').trim()).toBe('MAMMO_20261006');
    expect([joliet[0], joliet.subarray(88, 91).toString('ascii')]).toEqual([2, '%/E']);
    expect(primary.readUInt32LE(80) * 2048).toBe(declaredSize);
  });
});
