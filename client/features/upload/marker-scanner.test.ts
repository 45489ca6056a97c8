import { describe, expect, it, vi } from 'vitest';
import { MarkerVerdict } from '../../workers/dicom-marker';
import { FIRST_BATCH, nextBatchSize, scanInBatches } from './marker-scanner';

const item = (index: number) => ({ file: new File([], `f${index}`), path: `f${index}` });

/** A worker stand-in whose post costs `msPerFile` on a fake clock, as serialising Files does. */
function fakeWorker(msPerFile: number, verdictOf: (name: string) => number) {
  let clock = 0;
  const batchSizes: number[] = [];
  const scanBatch = vi.fn((files: File[]) => {
    clock += files.length * msPerFile;
    batchSizes.push(files.length);
    return Promise.resolve({
      verdicts: Uint8Array.from(files, (file) => verdictOf(file.name)),
      sizes: Float64Array.from(files, (file) => 1000 + Number(file.name.slice(1))),
      lastModified: Float64Array.from(files, () => 7),
    });
  });
  return { scanBatch, batchSizes, now: () => clock };
}

describe('scanInBatches', () => {
  it('sorts thousands of files by verdict in order, with progress after every batch', async () => {
    const items = Array.from({ length: 517 }, (_, index) => item(index));
    // Every tenth file is not DICOM, the file named f5 is unreadable.
    const worker = fakeWorker(0, (name) =>
      name === 'f5' ? MarkerVerdict.unreadable : Number(name.slice(1)) % 10 === 0 ? MarkerVerdict.notDicom : MarkerVerdict.dicom,
    );
    const progress: number[] = [];
    const result = await scanInBatches(items, worker.scanBatch, (done) => progress.push(done), worker.now);

    expect(result.notDicom).toBe(52);
    expect(result.unreadable).toBe(1);
    expect(result.dicom).toHaveLength(517 - 52 - 1);
    // The worker's size and date of each kept file travel with it.
    expect(result.dicom[0]).toEqual({ ...items[1], size: 1001, lastModified: 7 });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(517);
    expect(progress).toHaveLength(worker.batchSizes.length + 1);
  });

  it('grows the batches while posting is cheap: thousands of files take a handful of messages', async () => {
    const worker = fakeWorker(0, () => MarkerVerdict.dicom);
    await scanInBatches(
      Array.from({ length: 5000 }, (_, index) => item(index)),
      worker.scanBatch,
      () => {},
      worker.now,
    );
    expect(worker.batchSizes).toEqual([FIRST_BATCH, 4, 16, 64, 256, 1000, 1000, 1000, 1000, 659]);
  });

  it('keeps every post short when the browser must read each file’s metadata to post it', async () => {
    const worker = fakeWorker(2, () => MarkerVerdict.dicom);
    await scanInBatches(
      Array.from({ length: 500 }, (_, index) => item(index)),
      worker.scanBatch,
      () => {},
      worker.now,
    );
    // After the first post, none takes much longer than 5 ms.
    expect(Math.max(...worker.batchSizes.slice(1)) * 2).toBeLessThanOrEqual(6);
    expect(worker.batchSizes.reduce((sum, size) => sum + size, 0)).toBe(500);
  });

  it('sends nothing for an empty pick', async () => {
    const scanBatch = vi.fn();
    const result = await scanInBatches([], scanBatch, () => {});
    expect(scanBatch).not.toHaveBeenCalled();
    expect(result).toEqual({ dicom: [], notDicom: 0, unreadable: 0 });
  });
});

describe('nextBatchSize', () => {
  it('aims at a 5 ms post, at most four times the last batch, at least one file', () => {
    expect(nextBatchSize(16, 32)).toBe(3);
    expect(nextBatchSize(16, 0)).toBe(64);
    expect(nextBatchSize(8, 1000)).toBe(1);
  });
});
