import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DICOM_CORPUS_DIR } from '../../tests/support/dicom-corpus';
import { MarkerVerdict, markerVerdict, READS_IN_FLIGHT, scanFiles } from './dicom-marker';

const corpusFile = (name: string) => new Blob([readFileSync(path.join(DICOM_CORPUS_DIR, name))]);

/** A Part 10 file: 128-byte preamble, DICM, then anything. */
function part10(size = 400): Blob {
  const bytes = new Uint8Array(size);
  bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
  return new Blob([bytes]);
}

/** A blob that records which byte ranges were sliced and which slices were read, standing in for a large file on disk. */
function recordingBlob(inner: Blob, slices: Array<[number, number]>, reads: Array<[number, number]>): Blob {
  return {
    size: inner.size,
    slice: (start: number, end: number) => {
      slices.push([start, end]);
      const part = inner.slice(start, end);
      return {
        size: part.size,
        arrayBuffer: () => {
          reads.push([start, end]);
          return part.arrayBuffer();
        },
      };
    },
  } as unknown as Blob;
}

const verdicts = (files: Blob[]) => Promise.all(files.map(markerVerdict));

describe('markerVerdict', () => {
  it('keeps the files with DICM at bytes 128-131 of the real corpus and drops the raw data set without it', async () => {
    expect(await verdicts([corpusFile('CT_small.dcm'), corpusFile('ExplVR_LitEndNoMeta.dcm'), corpusFile('MR_truncated.dcm')])).toEqual([
      MarkerVerdict.dicom,
      MarkerVerdict.notDicom,
      MarkerVerdict.dicom,
    ]);
  });

  it('slices and reads only the four marker bytes, however large the file', async () => {
    const slices: Array<[number, number]> = [];
    const reads: Array<[number, number]> = [];
    expect(await markerVerdict(recordingBlob(part10(5_000_000), slices, reads))).toBe(MarkerVerdict.dicom);
    expect(slices).toEqual([[128, 132]]);
    expect(reads).toEqual([[128, 132]]);
  });

  it('calls a file shorter than 132 bytes not DICOM without reading it', async () => {
    const slices: Array<[number, number]> = [];
    const reads: Array<[number, number]> = [];
    const short = new Uint8Array(131);
    short.set([0x44, 0x49, 0x43], 128);
    const empty = recordingBlob(new Blob([]), slices, reads);
    expect(await verdicts([recordingBlob(new Blob([short]), slices, reads), empty])).toEqual([
      MarkerVerdict.notDicom,
      MarkerVerdict.notDicom,
    ]);
    expect(reads).toEqual([]);
  });

  it('drops a marker in the wrong place or in lower case', async () => {
    const shifted = new Uint8Array(400);
    shifted.set([0x44, 0x49, 0x43, 0x4d], 129);
    const lower = new Uint8Array(400);
    lower.set([0x64, 0x69, 0x63, 0x6d], 128);
    expect(await verdicts([new Blob([shifted]), new Blob([lower])])).toEqual([MarkerVerdict.notDicom, MarkerVerdict.notDicom]);
  });

  it('marks a file that cannot be read any more', async () => {
    const gone = {
      size: 1000,
      slice: () => ({ size: 4, arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotFoundError')) }),
    } as unknown as Blob;
    expect(await markerVerdict(gone)).toBe(MarkerVerdict.unreadable);
  });
});

describe('scanFiles', () => {
  it('answers each file’s verdict, size and date in order, with at most READS_IN_FLIGHT reads at once', async () => {
    let reading = 0;
    let mostAtOnce = 0;
    const slow = (file: File) =>
      Object.assign(file, {
        slice: (start: number, end: number) => {
          const part = Blob.prototype.slice.call(file, start, end);
          return {
            size: part.size,
            arrayBuffer: async () => {
              reading++;
              mostAtOnce = Math.max(mostAtOnce, reading);
              await new Promise((resolve) => setTimeout(resolve, 1));
              reading--;
              return part.arrayBuffer();
            },
          };
        },
      });
    const files = Array.from({ length: 150 }, (_, index) =>
      slow(
        index % 3
          ? new File([part10()], `IM${index}`, { lastModified: 1_700_000_000_000 })
          : new File(['notes'.repeat(40)], `n${index}`, { lastModified: 5 }),
      ),
    );
    const scanned = await scanFiles(files);
    expect([...scanned.verdicts]).toEqual(files.map((_, index) => (index % 3 ? MarkerVerdict.dicom : MarkerVerdict.notDicom)));
    expect(scanned.sizes[1]).toBe(400);
    expect(scanned.sizes[0]).toBe(200);
    expect(scanned.lastModified[1]).toBe(1_700_000_000_000);
    expect(mostAtOnce).toBe(READS_IN_FLIGHT);
  });
});
