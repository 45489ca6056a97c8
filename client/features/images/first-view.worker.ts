/// <reference lib="webworker" />
import { readPreviewHeader, type PreviewFormat } from './first-view-format';
import { PreviewAccumulator, previewStep } from './first-view-pixels';
import type { FirstViewPreview, FromFirstViewWorker, ToFirstViewWorker } from './first-view-messages';

/**
 * The first view's worker (first-views.ts): it downloads an image, reads its header as soon as it
 * is there, averages the rows into the small picture as they arrive, and at the end hands back the
 * picture and the whole file (transferred, not copied), which cornerstone then decodes without
 * downloading it again. The download is read here, not on the page: the page's thread is busy
 * drawing the page meanwhile, and a download read there would wait for it.
 */
declare const self: DedicatedWorkerGlobalScope;

type Job = {
  id: number;
  requestedAt: number;
  file: Uint8Array<ArrayBuffer>;
  received: number;
  targetLongSide: number;
  header: 'unread' | 'none' | { format: PreviewFormat; pixels: PreviewAccumulator };
  /** Re-reading a header that did not fit waits for twice the bytes: no file is parsed more than a few times. */
  nextHeaderRead: number;
};

const FIRST_HEADER_READ = 16 * 1024;

function post(message: FromFirstViewWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

function readHeader(job: Job, complete: boolean): void {
  if (job.header !== 'unread' || (!complete && job.received < job.nextHeaderRead)) return;
  const read = readPreviewHeader(job.file.subarray(0, job.received), complete);
  if (read.kind === 'more') {
    job.nextHeaderRead = job.received * 2;
    return;
  }
  job.header = read.format
    ? { format: read.format, pixels: new PreviewAccumulator(read.format, previewStep(read.format, job.targetLongSide)) }
    : 'none';
  post({ kind: 'header', id: job.id, previewable: read.format !== null, requestedAt: job.requestedAt });
}

function append(job: Job, chunk: Uint8Array): void {
  if (job.received + chunk.length > job.file.length) {
    // No Content-Length, or a longer body than it said: grow as an array list does.
    const grown = new Uint8Array(Math.max(job.received + chunk.length, job.file.length * 2));
    grown.set(job.file.subarray(0, job.received));
    job.file = grown;
  }
  job.file.set(chunk, job.received);
  job.received += chunk.length;
  readHeader(job, false);
  if (typeof job.header === 'object') job.header.pixels.readRows(job.file, job.received);
}

async function pictureOf(job: Job): Promise<FirstViewPreview | null> {
  readHeader(job, true);
  if (typeof job.header !== 'object') return null;
  const { format, pixels } = job.header;
  const picture = pixels.picture();
  if (!picture) return null;
  const bitmap = await createImageBitmap(new ImageData(picture.rgba, picture.width, picture.height));
  return { bitmap, step: picture.step, rows: format.rows, columns: format.columns, patientOrientation: format.patientOrientation };
}

async function download({ id, url, targetLongSide }: ToFirstViewWorker): Promise<void> {
  const requestedAt = performance.timeOrigin + performance.now();
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  const length = Number(response.headers.get('Content-Length'));
  const job: Job = {
    id,
    requestedAt,
    file: new Uint8Array(Number.isSafeInteger(length) && length > 0 ? length : 1024 * 1024),
    received: 0,
    targetLongSide,
    header: 'unread',
    nextHeaderRead: FIRST_HEADER_READ,
  };
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    append(job, value);
  }
  const preview = await pictureOf(job).catch(() => null);
  const file = job.received === job.file.length ? job.file.buffer : job.file.slice(0, job.received).buffer;
  post({ kind: 'done', id, preview, file }, preview ? [preview.bitmap, file] : [file]);
}

self.onmessage = (event: MessageEvent<ToFirstViewWorker>) => {
  const message = event.data;
  // Whatever went wrong here, cornerstone still downloads and draws the image itself.
  download(message).catch(() => post({ kind: 'failed', id: message.id }));
};
