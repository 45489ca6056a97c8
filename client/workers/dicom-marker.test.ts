import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DICOM_CORPUS_DIR } from '../../tests/support/dicom-corpus';
import { MarkerVerdict, scanFiles, scanMarkers } from './dicom-marker';

const corpusFile = (name: string) => new Blob([readFileSync(path.join(DICOM_CORPUS_DIR, name))]);

/** A Part 10 file: 128-byte preamble, DICM, then anything. */
function part10(size = 400): Blob {
  const bytes = new Uint8Array(size);
  bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
  return new Blob([bytes]);
}

/** A blob that records which byte ranges were read, standing in for a large file on disk. */
function recordingBlob(inner: Blob, reads: Array<[number, number]>): Blob {
  return {
    size: inner.size,
    slice: (start: number, end: number) => {
      reads.push([start, end]);
      return inner.slice(start, end);
    },
  } as unknown as Blob;
}

describe('scanMarkers', () => {
  it('keeps the files with DICM at bytes 128-131 of the real corpus and drops the raw data set without it', async () => {
    const verdicts = await scanMarkers([corpusFile('CT_small.dcm'), corpusFile('ExplVR_LitEndNoMeta.dcm'), corpusFile('MR_truncated.dcm')]);
    expect([...verdicts]).toEqual([MarkerVerdict.dicom, MarkerVerdict.notDicom, MarkerVerdict.dicom]);
  });

  it('reads only the four marker bytes, however large the file', async () => {
    const reads: Array<[number, number]> = [];
    const verdicts = await scanMarkers([recordingBlob(part10(5_000_000), reads)]);
    expect([...verdicts]).toEqual([MarkerVerdict.dicom]);
    expect(reads).toEqual([[128, 132]]);
  });

  it('calls a file shorter than 132 bytes not DICOM without reading it', async () => {
    const reads: Array<[number, number]> = [];
    const short = new Uint8Array(131);
    short.set([0x44, 0x49, 0x43], 128);
    const verdicts = await scanMarkers([recordingBlob(new Blob([short]), reads), new Blob([])]);
    expect([...verdicts]).toEqual([MarkerVerdict.notDicom, MarkerVerdict.notDicom]);
    expect(reads).toEqual([]);
  });

  it('drops a marker in the wrong place or in lower case', async () => {
    const shifted = new Uint8Array(400);
    shifted.set([0x44, 0x49, 0x43, 0x4d], 129);
    const lower = new Uint8Array(400);
    lower.set([0x64, 0x69, 0x63, 0x6d], 128);
    expect([...(await scanMarkers([new Blob([shifted]), new Blob([lower])]))]).toEqual([MarkerVerdict.notDicom, MarkerVerdict.notDicom]);
  });

  it('marks a file that cannot be read any more, and keeps the order of many files', async () => {
    const gone = {
      size: 1000,
      slice: () => ({ arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotFoundError')) }),
    } as unknown as Blob;
    const files = Array.from({ length: 40 }, (_, index) => (index === 17 ? gone : index % 3 === 0 ? new Blob(['not dicom']) : part10()));
    const verdicts = await scanMarkers(files);
    expect(verdicts[17]).toBe(MarkerVerdict.unreadable);
    expect(verdicts[3]).toBe(MarkerVerdict.notDicom);
    expect(verdicts[4]).toBe(MarkerVerdict.dicom);
    expect(verdicts.filter((verdict) => verdict === MarkerVerdict.dicom)).toHaveLength(40 - 14 - 1);
  });
});

describe('scanFiles', () => {
  it('answers each file’s size and modification time with its verdict', async () => {
    const image = new File([part10()], 'IM1', { lastModified: 1_700_000_000_000 });
    const text = new File(['notes'], 'notes.txt', { lastModified: 5 });
    const scanned = await scanFiles([image, text]);
    expect([...scanned.verdicts]).toEqual([MarkerVerdict.dicom, MarkerVerdict.notDicom]);
    expect([...scanned.sizes]).toEqual([400, 5]);
    expect([...scanned.lastModified]).toEqual([1_700_000_000_000, 5]);
  });
});
