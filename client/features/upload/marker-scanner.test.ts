import { describe, expect, it, vi } from 'vitest';
import { MarkerVerdict, type ScannedBatch } from '../../workers/dicom-marker';
import {
  BATCHES_IN_FLIGHT,
  createMarkerScanner,
  FIRST_BATCH,
  HAND_OVER_EVERY_MS,
  nextBatchSize,
  scanInBatches,
  type ScanEnvironment,
  type ScanHandlers,
} from './marker-scanner';

type Item = { file: File; path: string };
const item = (index: number): Item => ({ file: new File([], `f${index}`), path: `dir/f${index}` });

/**
 * The page and its worker as the scan sees them: posting a batch costs `msPerFile` per file on a
 * fake clock (serialising Files), the worker answers `answerMs` later with each file's verdict,
 * size 1000 + its number and date 7; hand-overs run as timers of their own.
 */
function fakeWorker(verdictOf: (name: string) => MarkerVerdict, msPerFile = 0, answerMs = 0) {
  let clock = 0;
  let stopped = false;
  const worker = {
    batchSizes: [] as number[],
    firstKeys: [] as number[],
    pending: 0,
    maxPending: 0,
    handOverDelays: [] as number[],
    stop: () => (stopped = true),
  };
  const environment: ScanEnvironment = {
    scanBatch: (files, firstKey) => {
      clock += files.length * msPerFile;
      worker.batchSizes.push(files.length);
      worker.firstKeys.push(firstKey);
      worker.pending++;
      worker.maxPending = Math.max(worker.maxPending, worker.pending);
      return new Promise<ScannedBatch>((resolve) =>
        setTimeout(() => {
          worker.pending--;
          resolve({
            verdicts: Uint8Array.from(files, (file) => verdictOf(file.name)),
            sizes: Float64Array.from(files, (file) => 1000 + Number(file.name.slice(1))),
            lastModified: Float64Array.from(files, () => 7),
          });
        }, answerMs),
      );
    },
    now: () => clock,
    yieldToPage: () => new Promise((resolve) => setTimeout(resolve, 0)),
    later: (task, ms) => {
      worker.handOverDelays.push(ms);
      setTimeout(task, ms);
    },
    stopped: () => stopped,
  };
  return { worker, environment };
}

function recorder() {
  const batches: Array<{ paths: string[]; notDicom: number; unreadable: number }> = [];
  const progress: Array<[number, number]> = [];
  const handlers: ScanHandlers<Item> = {
    onChecked: (dicom, counts) => batches.push({ paths: dicom.map((checked) => checked.path), ...counts }),
    onProgress: (done, total) => progress.push([done, total]),
  };
  return { batches, progress, handlers };
}

const numberOf = (path: string) => Number(path.slice('dir/f'.length));

describe('scanInBatches', () => {
  it('sorts thousands of files by verdict, handing them on in batches that add up to the result in pick order', async () => {
    const items = Array.from({ length: 1517 }, (_, index) => item(index));
    // Every tenth file is not DICOM, the file named f5 is unreadable.
    const { worker, environment } = fakeWorker((name) =>
      name === 'f5' ? MarkerVerdict.unreadable : Number(name.slice(1)) % 10 === 0 ? MarkerVerdict.notDicom : MarkerVerdict.dicom,
    );
    const { batches, progress, handlers } = recorder();
    const result = await scanInBatches(items, handlers, environment, 100);

    expect(result.notDicom).toBe(152);
    expect(result.unreadable).toBe(1);
    expect(result.dicom.map((checked) => checked.path)).toEqual(
      items.filter((_, index) => index % 10 !== 0 && index !== 5).map((one) => one.path),
    );
    // The worker's size and date of each kept file travel with it, and the key the worker holds it under.
    expect(result.dicom[0]).toEqual({ ...items[1], size: 1001, lastModified: 7, scanKey: 101 });
    // Each batch is posted under the keys of its files: the first key, the rest in order.
    expect(worker.firstKeys).toEqual(
      worker.batchSizes.map((_, batch) => 100 + worker.batchSizes.slice(0, batch).reduce((a, b) => a + b, 0)),
    );
    // Streamed: several batches, each in pick order, together exactly the result; counts are increments.
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) expect([...batch.paths].sort((a, b) => numberOf(a) - numberOf(b))).toEqual(batch.paths);
    expect(batches.flatMap((batch) => batch.paths)).toEqual(result.dicom.map((checked) => checked.path));
    expect(batches.reduce((sum, batch) => sum + batch.notDicom, 0)).toBe(152);
    expect(batches.reduce((sum, batch) => sum + batch.unreadable, 0)).toBe(1);
    expect(progress[0]).toEqual([0, 1517]);
    expect(progress.at(-1)).toEqual([1517, 1517]);
    expect(progress).toHaveLength(batches.length + 1);
  });

  it('hands the first file that passes on at once, later ones at most every HAND_OVER_EVERY_MS', async () => {
    const { worker, environment } = fakeWorker((name) => (name === 'f0' ? MarkerVerdict.notDicom : MarkerVerdict.dicom));
    const { batches, handlers } = recorder();
    let postedAtFirstHandOver = -1;
    await scanInBatches(
      Array.from({ length: 3000 }, (_, index) => item(index)),
      {
        ...handlers,
        onChecked: (dicom, counts) => {
          if (postedAtFirstHandOver < 0 && dicom.length > 0) postedAtFirstHandOver = worker.batchSizes.reduce((sum, size) => sum + size, 0);
          handlers.onChecked(dicom, counts);
        },
      },
      environment,
    );
    // The first batch (f0) holds no DICOM file: a regular hand-over; the first that passes makes it urgent.
    expect(worker.handOverDelays.slice(0, 2)).toEqual([HAND_OVER_EVERY_MS, 0]);
    expect(worker.handOverDelays.slice(2).every((delay) => delay === HAND_OVER_EVERY_MS)).toBe(true);
    expect(batches[0]!.paths[0]).toBe('dir/f1');
    expect(batches[0]!.notDicom).toBe(1);
    expect(postedAtFirstHandOver).toBeLessThan(3000);
  });

  it('grows the batches while posting is cheap, with BATCHES_IN_FLIGHT at most waiting for the worker', async () => {
    const { worker, environment } = fakeWorker(() => MarkerVerdict.dicom, 0, 5);
    await scanInBatches(
      Array.from({ length: 5000 }, (_, index) => item(index)),
      recorder().handlers,
      environment,
    );
    expect(worker.batchSizes).toEqual([FIRST_BATCH, 4, 16, 64, 256, 1000, 1000, 1000, 1000, 659]);
    expect(worker.maxPending).toBe(BATCHES_IN_FLIGHT);
  });

  it('keeps every post short when the browser must read each file’s metadata to post it', async () => {
    const { worker, environment } = fakeWorker(() => MarkerVerdict.dicom, 2);
    await scanInBatches(
      Array.from({ length: 500 }, (_, index) => item(index)),
      recorder().handlers,
      environment,
    );
    // After the first post, none takes much longer than 8 ms.
    expect(Math.max(...worker.batchSizes.slice(1)) * 2).toBeLessThanOrEqual(10);
    expect(worker.batchSizes.reduce((sum, size) => sum + size, 0)).toBe(500);
  });

  it('posts and hands nothing more on once stopped, resolving with what was checked', async () => {
    const { worker, environment } = fakeWorker(() => MarkerVerdict.dicom, 1);
    const { batches, handlers } = recorder();
    const scanning = scanInBatches(
      Array.from({ length: 2000 }, (_, index) => item(index)),
      handlers,
      environment,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    worker.stop();
    const posted = worker.batchSizes.length;
    const handedOver = batches.length;
    const result = await scanning;
    await new Promise((resolve) => setTimeout(resolve, HAND_OVER_EVERY_MS + 20));
    expect(worker.batchSizes).toHaveLength(posted);
    expect(batches).toHaveLength(handedOver);
    expect(result.dicom.length).toBeLessThan(2000);
  });

  it('sends nothing for an empty pick', async () => {
    const { worker, environment } = fakeWorker(() => MarkerVerdict.dicom);
    const onChecked = vi.fn();
    const result = await scanInBatches([], { onChecked, onProgress: () => {} }, environment);
    expect(worker.batchSizes).toEqual([]);
    expect(onChecked).not.toHaveBeenCalled();
    expect(result).toEqual({ dicom: [], notDicom: 0, unreadable: 0 });
  });
});

describe('nextBatchSize', () => {
  it('aims at an 8 ms post, at most four times the last batch, at least one file', () => {
    expect(nextBatchSize(16, 32)).toBe(4);
    expect(nextBatchSize(16, 0)).toBe(64);
    expect(nextBatchSize(8, 1000)).toBe(1);
  });
});

describe('createMarkerScanner', () => {
  /** A Part 10 file: 128-byte preamble, DICM, then anything. */
  const part10 = (name: string) => {
    const bytes = new Uint8Array(400);
    bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
    return new File([bytes], name, { lastModified: 1_700_000_000_000 });
  };

  it('reads the real files’ markers (on the page where there are no workers), streams them and marks start, first pass and end', async () => {
    const scanner = createMarkerScanner();
    const items = [
      { file: new File(['notes'], 'notes.txt'), path: 'notes.txt' },
      { file: part10('IM1'), path: 'DICOM/IM1' },
      { file: part10('IM2'), path: 'DICOM/IM2' },
    ];
    const streamed: string[] = [];
    performance.clearMarks();
    const result = await scanner.scan(items, {
      onChecked: (dicom) => streamed.push(...dicom.map((checked) => checked.path)),
      onProgress: () => {},
    });
    scanner.dispose();
    expect(result.dicom).toEqual([
      { ...items[1], size: 400, lastModified: 1_700_000_000_000, scanKey: 1 },
      { ...items[2], size: 400, lastModified: 1_700_000_000_000, scanKey: 2 },
    ]);
    expect(result.notDicom).toBe(1);
    expect(streamed).toEqual(['DICOM/IM1', 'DICOM/IM2']);
    expect(performance.getEntriesByType('mark').map((entry) => entry.name)).toEqual([
      'marker-scan:start',
      'marker-scan:first-checked',
      'marker-scan:end',
    ]);
    expect((performance.getEntriesByName('marker-scan:end')[0] as PerformanceMark).detail).toEqual({ files: 3, dicom: 2 });
  });

  it('gives a second pick keys after the first one’s, and reads a passed file’s identity', async () => {
    const scanner = createMarkerScanner();
    const handlers = { onChecked: () => {}, onProgress: () => {} };
    const first = await scanner.scan([{ file: part10('IM1'), path: 'IM1' }], handlers);
    const second = await scanner.scan(
      [
        { file: new File(['x'], 'DICOMDIR'), path: 'DICOMDIR' },
        { file: part10('IM2'), path: 'IM2' },
      ],
      handlers,
    );
    expect(first.dicom.map((checked) => checked.scanKey)).toEqual([0]);
    expect(second.dicom.map((checked) => checked.scanKey)).toEqual([2]);
    // No worker here: the page reads the file itself; a file named DICOMDIR is one whatever it holds.
    expect(await scanner.identify({ ...second.dicom[0]!, path: 'disc/DICOMDIR' })).toEqual({ sopInstanceUid: null, dicomdir: true });
    scanner.dispose();
  });
});
