import { releaseProxy, wrap } from 'comlink';
import { readDicomIdentity, type DicomIdentity } from '../../workers/dicom-identity';
import { MarkerVerdict, scanFiles, type ScannedBatch } from '../../workers/dicom-marker';
import type { MarkerScanWorker } from '../../workers/dicom-marker.worker';
import { yieldToPage } from '../../lib/yield-to-page';

/**
 * Why a worker, fed in small batches, two at a time (measured with bench/marker-scan.ts, Chromium,
 * 5,000 picked files): a File of a file input comes without its size and date, and the first
 * thing that needs them (a slice, `size`, or posting the File) fetches them with a synchronous
 * trip to the browser on the calling thread. Posting costs the page that one trip per file;
 * the slices, reads and their answers then run in the worker, in parallel with the next post.
 * Reading on the page instead costs it the trip, the slice and every read's answer: 20-35 %
 * slower in interleaved runs on two cores. Posts overlapping the worker's reads get slower, so
 * each batch is sized from how long the last post took, to keep every post near TARGET_POST_MS.
 */
export const FIRST_BATCH = 1;
const MAX_BATCH = 1000;
/** Small: on a busy machine the same post takes several times longer, and must still stay under 50 ms. */
const TARGET_POST_MS = 8;
/** Batches posted and not yet answered: the next post overlaps the worker's reads of the last one. */
export const BATCHES_IN_FLIGHT = 2;
/**
 * Checked files are handed on at most this often, the first at once. Each hand-over is main-thread
 * work taken from posting files; more often than the page shows progress (upload-run.ts
 * SNAPSHOT_EVERY_MS) buys nothing, and files reach the transfers well before they are needed.
 */
export const HAND_OVER_EVERY_MS = 250;

export function nextBatchSize(previous: number, postMs: number): number {
  const fitting = Math.round((previous * TARGET_POST_MS) / Math.max(postMs, 0.1));
  return Math.max(1, Math.min(MAX_BATCH, previous * 4, fitting));
}

/**
 * A file's size and date as the worker read them (asking the File on the page would block it),
 * and the key the worker keeps the file under for its identity (MarkerScanner.identify).
 */
type FileFacts = { size: number; lastModified: number; scanKey: number };
type ScanCounts = { notDicom: number; unreadable: number };
export type ScanHandlers<T> = {
  /** Files that passed the marker check, as soon as they are checked, in batches, in pick order within a batch. */
  onChecked: (dicom: Array<T & FileFacts>, counts: ScanCounts) => void;
  /** Files checked so far, of total. */
  onProgress: (done: number, total: number) => void;
};
export type ScanResult<T> = { dicom: Array<T & FileFacts>; notDicom: number; unreadable: number };

/** What the scan needs of the page, replaceable in tests. */
export type ScanEnvironment = {
  /** Posts the files (synchronously) under keys from `firstKey` on, and resolves with their verdicts, sizes and dates. */
  scanBatch: (files: File[], firstKey: number) => Promise<ScannedBatch>;
  now: () => number;
  /** Ends the current task so input and rendering get their turn. */
  yieldToPage: () => Promise<void>;
  /** Runs `task` in a task of its own, `ms` from now. */
  later: (task: () => void, ms: number) => void;
  /** True once the scanner is disposed: nothing more is posted or handed on. */
  stopped: () => boolean;
};

/**
 * Sends the files to the worker in batches, each post a task of its own, BATCHES_IN_FLIGHT at
 * once, and hands the checked files on as the answers come: the first file that passes at once
 * (its upload can start), then what was checked every HAND_OVER_EVERY_MS. Resolves with
 * everything once all are checked (after dispose, with what was). The file at `index` is posted
 * under the key `firstKey + index`.
 */
export async function scanInBatches<T extends { file: File }>(
  items: readonly T[],
  { onChecked, onProgress }: ScanHandlers<T>,
  environment: ScanEnvironment,
  firstKey = 0,
): Promise<ScanResult<T>> {
  const result: ScanResult<T> = { dicom: [], notDicom: 0, unreadable: 0 };
  const total = items.length;
  onProgress(0, total);
  // Checked since the last hand-over: the files that passed with their facts, the counts of the rest.
  let passed: Array<{ index: number; size: number; lastModified: number }> = [];
  let counts: ScanCounts = { notDicom: 0, unreadable: 0 };
  let done = 0;
  let dicomHandedOver = false;
  // Which scheduled hand-over is the live one: a due one made urgent replaces the later one.
  let scheduled: { urgent: boolean; token: number } | null = null;
  let tokens = 0;

  const handOver = () => {
    scheduled = null;
    if (passed.length === 0 && counts.notDicom === 0 && counts.unreadable === 0) return;
    passed.sort((a, b) => a.index - b.index);
    const checked = passed.map(({ index, size, lastModified }) => ({ ...items[index]!, size, lastModified, scanKey: firstKey + index }));
    const increments = counts;
    passed = [];
    counts = { notDicom: 0, unreadable: 0 };
    result.dicom.push(...checked);
    result.notDicom += increments.notDicom;
    result.unreadable += increments.unreadable;
    dicomHandedOver ||= checked.length > 0;
    onChecked(checked, increments);
    onProgress(done, total);
  };
  const schedule = (urgent: boolean) => {
    if (scheduled && (scheduled.urgent || !urgent)) return;
    const token = ++tokens;
    scheduled = { urgent, token };
    environment.later(
      () => {
        if (scheduled?.token === token && !environment.stopped()) handOver();
      },
      urgent ? 0 : HAND_OVER_EVERY_MS,
    );
  };

  const inFlight = new Set<Promise<void>>();
  let size = FIRST_BATCH;
  for (let start = 0; start < total;) {
    if (inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(inFlight);
    // No post shares a task with the pick's event, another post or an answer.
    await environment.yieldToPage();
    if (environment.stopped()) break;
    const first = start;
    const batch = items.slice(first, first + size);
    start += batch.length;
    const postedAt = environment.now();
    const pending = environment.scanBatch(
      batch.map((item) => item.file),
      firstKey + first,
    );
    size = nextBatchSize(batch.length, environment.now() - postedAt);
    const answered = pending.then(({ verdicts, sizes, lastModified }) => {
      inFlight.delete(answered);
      if (environment.stopped()) return;
      verdicts.forEach((verdict, offset) => {
        if (verdict === MarkerVerdict.dicom)
          passed.push({ index: first + offset, size: sizes[offset]!, lastModified: lastModified[offset]! });
        else if (verdict === MarkerVerdict.unreadable) counts.unreadable++;
        else counts.notDicom++;
      });
      done += batch.length;
      schedule(!dicomHandedOver && passed.length > 0);
    });
    inFlight.add(answered);
  }
  await Promise.all(inFlight);
  if (!environment.stopped()) {
    tokens++; // the scheduled hand-over is this one
    handOver();
  }
  return result;
}

/**
 * Resolves once the browser serves reads of the picked files. Chromium is still busy with a big
 * pick for a while after the change event, and the first File posted before it is done blocks
 * the page until it is (100-300 ms for 5,000 files on a busy machine); reading the first bytes of
 * one of them waits for the same without blocking anything.
 */
async function pickSettled(first: File | undefined): Promise<void> {
  if (!first) return;
  const reader = first.stream().getReader();
  try {
    await reader.read();
  } catch {
    // Unreadable: the scan will say so.
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** User Timing marks, seen in the browser's performance tools and read by bench/marker-scan.ts. */
const mark = (name: string, detail?: object) => performance.mark?.(`marker-scan:${name}`, { detail });

export type MarkerScanner = {
  /** Checks the markers; checked files stream through `handlers.onChecked`, the promise resolves with all of them. */
  scan<T extends { file: File }>(items: readonly T[], handlers: ScanHandlers<T>): Promise<ScanResult<T>>;
  /** The identity of a file a scan passed, read in the worker (the page slices nothing). */
  identify(file: { file: File; path: string; size: number; scanKey?: number }): Promise<DicomIdentity>;
  /** Stops running scans (they resolve with what they checked, handing nothing more on) and ends the worker. */
  dispose(): void;
};

type Backend = {
  scan: (files: File[], firstKey: number) => Promise<ScannedBatch>;
  /** undefined where no worker holds the files: the page reads them itself. */
  identify?: (key: number, path: string) => Promise<DicomIdentity>;
  /** Rejects when the worker's script failed: nothing would answer. */
  failed: Promise<never>;
  end: () => void;
};

/**
 * The scan's Comlink worker, started at once (the page creates the scanner on load, so the first
 * pick does not wait for the worker's script). Where a page has no workers (test environments),
 * the same reads run on the page.
 */
function startBackend(): Backend {
  if (typeof Worker === 'undefined') {
    return { scan: scanFiles, failed: new Promise(() => {}), end: () => {} };
  }
  const worker = new Worker(new URL('../../workers/dicom-marker.worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<MarkerScanWorker>(worker);
  // A worker whose script failed to load answers nothing: end the waits instead of leaving the page reading forever.
  const failed = new Promise<never>((_, reject) =>
    worker.addEventListener('error', () => reject(new Error('the marker scan worker failed'))),
  );
  failed.catch(() => {}); // reported through the calls that wait on it
  let ended = false;
  return {
    scan: (files, firstKey) => remote.scan(files, firstKey),
    identify: (key, path) => remote.identify(key, path),
    failed,
    end: () => {
      if (ended) return;
      ended = true;
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}

export function createMarkerScanner(): MarkerScanner {
  let disposed = false;
  // The worker ends once no scan waits for its answers any more (a stopped scan still gets those of its last posts).
  let scansRunning = 0;
  const backend = startBackend();
  // Keys of posted files, unique across the scans of this scanner (a second pick joins the first).
  let keysUsed = 0;
  const environment: ScanEnvironment = {
    scanBatch: (files, firstKey) => backend.scan(files, firstKey),
    now: () => performance.now(),
    yieldToPage,
    later: (task, ms) => void setTimeout(task, ms),
    stopped: () => disposed,
  };
  return {
    scan: async (items, handlers) => {
      scansRunning++;
      try {
        return await scanWith(items, handlers);
      } finally {
        scansRunning--;
        if (disposed && scansRunning === 0) backend.end();
      }
    },
    identify: ({ file, path, size, scanKey }) =>
      backend.identify && scanKey !== undefined
        ? Promise.race([backend.identify(scanKey, path), backend.failed])
        : readDicomIdentity(file, path, size),
    dispose: () => {
      disposed = true;
      if (scansRunning === 0) backend.end();
    },
  };

  async function scanWith<T extends { file: File }>(items: readonly T[], handlers: ScanHandlers<T>): Promise<ScanResult<T>> {
    mark('start', { files: items.length });
    await pickSettled(items[0]?.file);
    let firstChecked = true;
    const firstKey = keysUsed;
    keysUsed += items.length;
    const scanning = scanInBatches(
      items,
      {
        onChecked: (dicom, counts) => {
          if (firstChecked && dicom.length > 0) {
            firstChecked = false;
            mark('first-checked');
          }
          handlers.onChecked(dicom, counts);
        },
        onProgress: handlers.onProgress,
      },
      environment,
      firstKey,
    );
    const result = await Promise.race([scanning, backend.failed]);
    mark('end', { files: items.length, dicom: result.dicom.length });
    return result;
  }
}
