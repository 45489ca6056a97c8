import type { UploadOutcome } from '@common/types/upload';
import { ApiError, postFormWithProgress, UNKNOWN_ERROR } from '../../lib/api';
import type { SelectedFile } from './selection';

/** A request that failed for good: how many files it carried and the error code (docs/api.md). */
type BatchFailure = { files: number; code: string };
export type UploadReport = UploadOutcome & { failed: BatchFailure[] };

/** Waits before the 2nd, 3rd and 4th attempt of a batch that failed on the way or on the server. */
export const RETRY_DELAYS_MS = [1_000, 3_000, 9_000];
const MAX_RETRY_AFTER_MS = 30_000;

/** After these no later batch can succeed either, so they are not sent at all. */
const ENDS_UPLOAD = new Set(['UNAUTHENTICATED', 'PASSWORD_CHANGE_REQUIRED', 'UPLOAD_QUOTA_EXCEEDED']);

/** `onSent` gets the share of the request sent so far, 0 to 1; a retry starts it over. */
export type SendBatch = (
  files: SelectedFile[],
  options: { signal?: AbortSignal; onSent: (share: number) => void },
) => Promise<UploadOutcome>;

/** One multipart request with the repeated field `dicoms`; api.ts adds the CSRF token and renews it once if stale. */
const postBatch: SendBatch = (files, { signal, onSent }) => {
  const form = new FormData();
  for (const { file, path } of files) form.append('dicoms', file, path);
  return postFormWithProgress<UploadOutcome>('/dicom', form, {
    signal,
    onUploadProgress: (loaded, total) => onSent(total > 0 ? loaded / total : 0),
  });
};

/** A lost connection, a timeout or a server failure may pass; a 4xx answer would only repeat. */
function worthRetrying(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function sendWithRetries(send: () => Promise<UploadOutcome>, wait: (ms: number) => Promise<void>): Promise<UploadOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !worthRetrying(error)) throw error;
      const asked = (error.retryAfterSeconds ?? 0) * 1000;
      await wait(Math.min(Math.max(delay, asked), MAX_RETRY_AFTER_MS));
    }
  }
}

/**
 * Sends the batches one after another (parallel requests would only share the same uplink) and
 * adds up what the server did with each file. A batch that still fails after its retries is
 * reported and the next one goes on. `onProgress` gets the bytes sent so far, as the requests
 * report them: it never goes back, also not when a batch is sent again.
 */
export async function sendInBatches(
  batches: readonly SelectedFile[][],
  options: {
    send?: SendBatch;
    onProgress: (doneBytes: number, totalBytes: number) => void;
    wait?: (ms: number) => Promise<void>;
    signal?: AbortSignal;
  },
): Promise<UploadReport> {
  const { send = postBatch, onProgress, wait = sleep, signal } = options;
  const sizeOf = (batch: readonly SelectedFile[]) => batch.reduce((sum, { size }) => sum + size, 0);
  const total = batches.reduce((sum, batch) => sum + sizeOf(batch), 0);
  const report: UploadReport = { stored: 0, duplicates: 0, refused: [], failed: [] };
  let done = 0;
  let endedBy: string | null = null;
  onProgress(0, total);
  for (const batch of batches) {
    const batchBytes = sizeOf(batch);
    // The most of this batch any attempt has sent: a retry starting from zero does not take it back.
    let batchSent = 0;
    const onSent = (share: number) => {
      const sent = Math.min(1, share) * batchBytes;
      if (sent <= batchSent) return;
      batchSent = sent;
      onProgress(done + batchSent, total);
    };
    if (endedBy) {
      report.failed.push({ files: batch.length, code: endedBy });
    } else {
      try {
        const outcome = await sendWithRetries(() => send(batch, { signal, onSent }), wait);
        report.stored += outcome.stored;
        report.duplicates += outcome.duplicates;
        report.refused.push(...outcome.refused);
      } catch (error) {
        if (signal?.aborted) throw error;
        const code = error instanceof ApiError ? error.code : UNKNOWN_ERROR;
        report.failed.push({ files: batch.length, code });
        if (ENDS_UPLOAD.has(code)) endedBy = code;
      }
    }
    done += batchBytes;
    onProgress(done, total);
  }
  return report;
}
