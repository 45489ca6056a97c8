import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MG_FOR_PRESENTATION_SOP_CLASS } from '../server/dicom/synthetic-mg';
import { writePart10 } from '../server/dicom/part10';
import { uidFromUuid } from '../server/dicom/uids';
import { storedImage } from '../server/iso/build';
import type { StoredImage } from '../server/iso/dicom-file-set';
import { createDiscImage } from '../server/iso/disc';
import { readVirtualImage } from '../server/iso/virtual-image';
import { createFileStorage } from '../server/lib/storage';

export type IsoThroughput = { studyBytes: number; isoMBps: number; catMBps: number; ratio: number; peakRssGrowthMB: number };

const ROWS = 2560;
const COLUMNS = 2048; // a full-field mammogram: 10 MB of 16-bit pixels

/**
 * A disc image laid out and read whole, as a download reads it, against `cat` of the same files to
 * /dev/null, both from a warm page cache, and how much the process grows meanwhile (it must not
 * grow with the study: the image is a stream).
 */
export async function measureIsoThroughput(studyBytes = 1024 ** 3): Promise<IsoThroughput> {
  const dir = mkdtempSync(path.join(tmpdir(), 'iso-bench-'));
  try {
    const pixels = new Uint16Array(ROWS * COLUMNS).map((_, i) => (i * 7) & 0xfff);
    const studyUid = uidFromUuid();
    const seriesUid = uidFromUuid();
    const storage = createFileStorage(dir);
    const files: StoredImage[] = [];
    let total = 0;
    for (let n = 1; total < studyBytes; n++) {
      const sopInstanceUid = uidFromUuid();
      const bytes = writePart10(
        {
          SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
          SOPInstanceUID: sopInstanceUid,
          StudyInstanceUID: studyUid,
          SeriesInstanceUID: seriesUid,
          PatientName: 'Bench^Study',
          PatientID: 'BENCH',
          Modality: 'MG',
          InstanceNumber: String(n),
          SeriesNumber: '1',
          StudyDate: '20261006',
          StudyTime: '104000',
          Rows: ROWS,
          Columns: COLUMNS,
          BitsAllocated: 16,
          BitsStored: 12,
          HighBit: 11,
          PixelRepresentation: 0,
          SamplesPerPixel: 1,
          PhotometricInterpretation: 'MONOCHROME2',
          PixelData: [pixels.buffer],
          _vrMap: { PixelData: 'OW' },
        },
        MG_FOR_PRESENTATION_SOP_CLASS,
        sopInstanceUid,
      );
      const key = storage.newKey('dicom', '.dcm');
      await storage.writeFile(key, bytes);
      files.push(storedImage(storage, key, bytes.length));
      total += bytes.length;
    }
    const cat = () => execFileSync('sh', ['-c', `cat ${dir}/storage/dicom/*.dcm > /dev/null`]);
    cat(); // warm the page cache for both runs
    let started = process.hrtime.bigint();
    cat();
    const catSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    started = process.hrtime.bigint();
    const disc = await createDiscImage({
      images: files,
      instruction: null,
      publisher: 'Bench',
      examinedOn: '2026-10-06',
      createdAt: new Date(),
    });
    await pipeline(
      readVirtualImage(disc, (key, range) => storage.openRead(key, range)),
      new Writable({ write: (_chunk, _encoding, done) => done() }),
    );
    const isoSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    const megabytes = total / 1024 ** 2;
    return {
      studyBytes: total,
      isoMBps: megabytes / isoSeconds,
      catMBps: megabytes / catSeconds,
      ratio: catSeconds / isoSeconds,
      peakRssGrowthMB: (peak - baseline) / 1024 ** 2,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printIsoThroughput(result: IsoThroughput): void {
  console.log(
    `ISO disc image laid out and read: ${(result.studyBytes / 1024 ** 3).toFixed(2)} GB study at ${result.isoMBps.toFixed(0)} MB/s ` +
      `(cat: ${result.catMBps.toFixed(0)} MB/s, ratio ${result.ratio.toFixed(2)}); peak memory growth ${result.peakRssGrowthMB.toFixed(0)} MB`,
  );
}
