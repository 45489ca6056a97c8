import type { EarlyStartGlobals } from './pre-paint';

/**
 * The app's side of the early start (./pre-paint.ts): what the pre-paint script began, taken over
 * once, by the modules that would otherwise begin it themselves.
 */
const earlyStart = globalThis as EarlyStartGlobals;

/** One not taken in the page's first 30 s is for nobody (its answer would be stale). */
const EARLY_REQUESTS_FRESH_MS = 30_000;

/**
 * The early GET of this URL, taken once by the first GET of it (client/lib/api.ts). Null inside:
 * the script decided not to send it, so the caller sends it now; undefined: none was started.
 */
export function takeEarlyRequest(url: string, method: string): Promise<Response | null> | undefined {
  const early = earlyStart.portalEarlyRequests;
  if (!early || method !== 'GET') return undefined;
  const response = early[url];
  delete early[url];
  return performance.now() < EARLY_REQUESTS_FRESH_MS ? response : undefined;
}

/** pdf.js's worker if the script started it (offline on a result page), for client/lib/pdf-worker.ts. */
export function takeEarlyPdfWorker(): Worker | undefined {
  const worker = earlyStart.portalPdfWorker;
  delete earlyStart.portalPdfWorker;
  return worker;
}
