import { releaseProxy, wrap } from 'comlink';
import { MarkerVerdict, type ScannedBatch } from '../../workers/dicom-marker';
import type { MarkerScanWorker } from '../../workers/dicom-marker.worker';

/**
 * Posting a File makes the browser fetch its metadata on the main thread while it serialises the
 * message: 0.3-4 ms per file in Chromium for files of a file input, several times more on a busy
 * machine. So the first batch is one file, each next one is sized from how long the last post
 * took, to keep every post near TARGET_POST_MS, and each post is a task of its own; files whose
 * metadata is already known travel a thousand at a time.
 */
export const FIRST_BATCH = 1;
const MIN_BATCH = 1;
const MAX_BATCH = 1000;
/** Small: on a busy machine the same post takes several times longer, and must still stay under 50 ms. */
const TARGET_POST_MS = 5;
/**
 * Batches posted and not yet answered. One: the worker's reads and the page's posts both wait on
 * the browser's file access, and overlapping them made posts several times slower.
 */
const IN_FLIGHT = 1;

export function nextBatchSize(previous: number, postMs: number): number {
  const fitting = Math.round((previous * TARGET_POST_MS) / Math.max(postMs, 0.1));
  return Math.max(MIN_BATCH, Math.min(MAX_BATCH, previous * 4, fitting));
}

/** Ends the current task so input and rendering get their turn (scheduler.yield where there is one). */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  // A message, unlike a timer, is not slowed to 4 ms when chained.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** A file's size and date as the worker read them: asking the File on the page would block it. */
export type FileFacts = { size: number; lastModified: number };
/** Posts the files (synchronously) and resolves with their verdicts, sizes and dates. */
export type ScanBatch = (files: File[]) => Promise<ScannedBatch>;
export type ScanResult<T> = { dicom: Array<T & FileFacts>; notDicom: number; unreadable: number };

/** Sends the files to `scanBatch` in batches, in order, and sorts them by verdict. */
export async function scanInBatches<T extends { file: File }>(
  items: readonly T[],
  scanBatch: ScanBatch,
  onProgress: (done: number, total: number) => void,
  now: () => number = () => performance.now(),
): Promise<ScanResult<T>> {
  const result: ScanResult<T> = { dicom: [], notDicom: 0, unreadable: 0 };
  let done = 0;
  onProgress(0, items.length);
  const inFlight: Promise<void>[] = [];
  let size = FIRST_BATCH;
  for (let start = 0; start < items.length;) {
    // Either wait for an answer or just end the task: no post shares a task with the pick's
    // event or with another post.
    if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    else await yieldToPage();
    const batch = items.slice(start, start + size);
    start += batch.length;
    const postedAt = now();
    const pending = scanBatch(batch.map((item) => item.file));
    size = nextBatchSize(batch.length, now() - postedAt);
    inFlight.push(
      pending.then(({ verdicts, sizes, lastModified }) => {
        batch.forEach((item, index) => {
          if (verdicts[index] === MarkerVerdict.dicom)
            result.dicom.push({ ...item, size: sizes[index]!, lastModified: lastModified[index]! });
          else if (verdicts[index] === MarkerVerdict.unreadable) result.unreadable++;
          else result.notDicom++;
        });
        done += batch.length;
        onProgress(done, items.length);
      }),
    );
  }
  await Promise.all(inFlight);
  return result;
}

/**
 * Resolves once the browser serves reads of the picked files. Chromium is still busy with a big
 * pick for a while after the change event, and the first File posted before it is done blocks
 * the page until it is (100-200 ms for 5,000 files on a busy machine); reading the first bytes of
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

export type MarkerScanner = {
  scan<T extends { file: File }>(items: readonly T[], onProgress: (done: number, total: number) => void): Promise<ScanResult<T>>;
  /** The indexes of `paths` in folder order, sorted in the worker. */
  order(paths: string[]): Promise<Uint32Array>;
  dispose(): void;
};

/**
 * The scan in its Comlink worker, started at once (the page creates it on load, so the first pick
 * does not wait for the worker's script) and ended by `dispose`.
 */
export function createMarkerScanner(): MarkerScanner {
  const worker = new Worker(new URL('../../workers/dicom-marker.worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<MarkerScanWorker>(worker);
  // A worker whose script failed to load answers nothing: end the waits instead of leaving the page reading forever.
  const failed = new Promise<never>((_, reject) =>
    worker.addEventListener('error', () => reject(new Error('the marker scan worker failed'))),
  );
  failed.catch(() => {}); // reported through the scans that wait on it
  return {
    scan: async (items, onProgress) => {
      await pickSettled(items[0]?.file);
      return Promise.race([scanInBatches(items, (files) => remote.scan(files), onProgress), failed]);
    },
    order: (paths) => Promise.race([remote.order(paths), failed]),
    dispose: () => {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}
