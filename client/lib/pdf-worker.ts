import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { takeEarlyPdfWorker } from '../early-start/takeover';

let worker: Worker | null = null;

/**
 * The PDF engine's worker, one for the page's lifetime: pdf.js opens every document on it
 * (`GlobalWorkerOptions.workerPort`, ./pdf.ts). Starting it costs the main thread nothing, but
 * the worker then fetches and compiles over a megabyte of code, which takes longer than reading
 * a kept PDF and drawing its first page; so it is started before a viewer is opened, offline even
 * before the app's code has loaded (client/early-start).
 */
export function pdfWorker(): Worker {
  worker ??= takeEarlyPdfWorker() ?? new Worker(workerUrl, { type: 'module' });
  return worker;
}

/**
 * Starts the worker ahead of the first PDF when its code is on the device (the service worker's
 * precache answers for it), so warming it up never spends a patient's mobile data.
 */
export function warmUpPdfWorker(): void {
  if (typeof Worker === 'undefined' || !navigator.serviceWorker?.controller) return;
  pdfWorker();
}
