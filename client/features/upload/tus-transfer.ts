import { Upload, type DetailedError, type HttpRequest, type HttpResponse, type UploadOptions } from 'tus-js-client';
import type { UploadRefusalReason } from '@common/types/upload';
import { api, ApiError, NETWORK_ERROR, UNKNOWN_ERROR } from '../../lib/api';
import type { ResumeStorage } from './resume-storage';
import type { CheckedFile, Transfer, TransferFailure, TransferHandlers, TransferOutcome } from './run-types';

/** The tus endpoint (docs/api.md "Resumable DICOM upload"). */
export const UPLOADS_PATH = '/dicom/uploads';
/**
 * Bytes per PATCH: a cut connection costs at most this much of one file again, and a small file
 * travels whole in the creating POST (creation-with-upload), one request per file.
 */
const CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Only a file sent in several requests can be resumed from a stored upload URL: a smaller one
 * learns its URL from the answer that already completes it, and a cut creation starts over. So
 * nothing is stored (nor hashed) for it, which a folder of 5,000 small images notices.
 */
const sentInSeveralRequests = (file: CheckedFile) => file.size > CHUNK_BYTES;
/** Waits before each new attempt after a failure; tus starts counting again once bytes got through. */
const RETRY_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000, 30_000];

const CSRF_HEADER = 'X-CSRF-Token';
/** Worth another attempt: no answer, the server busy or failing, an offset out of step (409), a lock (423). */
const RETRIED_STATUSES = new Set([408, 409, 423, 429]);
const REFUSAL_REASONS = new Set<UploadRefusalReason>(['not_dicom', 'dicomdir', 'not_image', 'unreadable']);
/** A file that could not be read while sending (moved, deleted, changed since the pick). */
const FILE_UNREADABLE = 'FILE_UNREADABLE';

type OutcomeAnswer = { outcome: 'stored' | 'duplicate' | 'refused'; reason?: string };

/**
 * The session's CSRF token for tus's requests (api.ts adds it to its own). It lives as long as
 * the session; a 403 INVALID_CSRF_TOKEN asks for it once more.
 */
export class CsrfToken {
  private token: Promise<string> | null = null;

  get(): Promise<string> {
    this.token ??= api.get<{ csrfToken: string }>('/auth/csrf').then(({ csrfToken }) => csrfToken);
    this.token.catch(() => {
      this.token = null;
    });
    return this.token;
  }

  renew(): void {
    this.token = null;
  }
}

export type TusContext = {
  storage: ResumeStorage;
  csrf: CsrfToken;
  /** null: no resuming (nobody known is signed in). */
  fingerprint: (file: CheckedFile) => Promise<string | null>;
  /** Absolute: tus resolves the Location header against it. */
  endpoint: string;
  isOnline?: () => boolean;
};

function errorCodeOf(response: HttpResponse | null | undefined): string {
  if (!response) return NETWORK_ERROR;
  try {
    const body = JSON.parse(response.getBody()) as { code?: unknown };
    if (typeof body.code === 'string') return body.code;
  } catch {
    // Not JSON (a proxy's page): the status says what is known.
  }
  return response.getStatus() >= 500 ? 'INTERNAL' : UNKNOWN_ERROR;
}

/** Why a transfer failed for good, in the codes of docs/api.md and the client's own. */
function failureOf(error: Error | DetailedError, online: boolean): TransferFailure {
  const detailed = error as Partial<DetailedError>;
  if (detailed.originalRequest === undefined) {
    // Not an HTTP failure: the file itself could not be read.
    return { code: FILE_UNREADABLE };
  }
  const code = errorCodeOf(detailed.originalResponse);
  return code === NETWORK_ERROR ? { code, offline: !online } : { code };
}

function outcomeOf(answer: { outcome?: string | null; reason?: string | null }): TransferOutcome | null {
  if (answer.outcome === 'stored' || answer.outcome === 'duplicate') return { outcome: answer.outcome };
  if (answer.outcome === 'refused') {
    const reason = answer.reason as UploadRefusalReason;
    return { outcome: 'refused', reason: REFUSAL_REASONS.has(reason) ? reason : 'unreadable' };
  }
  return null;
}

/** `/api/dicom/uploads/<id>` → `/dicom/uploads/<id>/outcome` for api.ts. */
function outcomePath(uploadUrl: string): string {
  const { pathname } = new URL(uploadUrl, 'http://localhost');
  return `${pathname.replace(/^\/api/, '')}/outcome`;
}

function requestOptions(context: TusContext): Pick<UploadOptions, 'onBeforeRequest' | 'retryDelays' | 'onShouldRetry'> {
  let renewedFor: string | null = null;
  return {
    onBeforeRequest: async (request: HttpRequest) => {
      request.setHeader(CSRF_HEADER, await context.csrf.get());
    },
    retryDelays: RETRY_DELAYS_MS,
    onShouldRetry: (error: DetailedError) => {
      const response = error.originalResponse;
      const status = response?.getStatus() ?? 0;
      if (status === 403 && errorCodeOf(response) === 'INVALID_CSRF_TOKEN') {
        // A token of an older session (the server restarted): one fresh token, then the server decides.
        const method = error.originalRequest.getMethod() + error.originalRequest.getURL();
        if (renewedFor === method) return false;
        renewedFor = method;
        context.csrf.renew();
        return true;
      }
      if (!(context.isOnline ?? (() => navigator.onLine))()) return false; // the page waits for the connection instead
      return status === 0 || status >= 500 || RETRIED_STATUSES.has(status);
    },
  };
}

/**
 * Sends one file with tus: resumed from the URL remembered for it when there is one (HEAD, then
 * PATCH from the server's offset), else created with its first bytes in the POST. `batch` names
 * the pick: its files share one entry in her audit log (reportBatch).
 */
export function startTusTransfer(context: TusContext, file: CheckedFile, handlers: TransferHandlers, batch: string): Transfer {
  const isOnline = context.isOnline ?? (() => navigator.onLine);
  let stopped = false;

  /** The answer of the last byte names the outcome; an upload found complete on resuming is asked for it. */
  async function settle(lastResponse: HttpResponse): Promise<void> {
    const fromHeaders = outcomeOf({ outcome: lastResponse.getHeader('Upload-Outcome'), reason: lastResponse.getHeader('Upload-Refusal') });
    if (fromHeaders) {
      handlers.onDone(fromHeaders);
      return;
    }
    try {
      const answer = await api.get<OutcomeAnswer>(outcomePath(upload.url ?? ''));
      handlers.onDone(outcomeOf(answer) ?? { outcome: 'refused', reason: 'unreadable' });
    } catch (error) {
      handlers.onFailed(
        error instanceof ApiError ? { code: error.code, offline: error.code === NETWORK_ERROR && !isOnline() } : { code: UNKNOWN_ERROR },
      );
    }
  }

  const upload = new Upload(file.file, {
    endpoint: context.endpoint,
    // The relative path, only ever shown back (contract A); never stored on the device.
    metadata: { name: file.path, batch },
    uploadSize: file.size,
    // None for a file sent whole (tus then stores nothing): hashing 5,000 paths costs the page too.
    fingerprint: async () => (sentInSeveralRequests(file) ? await context.fingerprint(file) : null) as string,
    urlStorage: context.storage,
    storeFingerprintForResuming: sentInSeveralRequests(file),
    removeFingerprintOnSuccess: true,
    uploadDataDuringCreation: true,
    chunkSize: CHUNK_BYTES,
    ...requestOptions(context),
    onProgress: (sent) => handlers.onProgress(sent),
    onSuccess: ({ lastResponse }) => void settle(lastResponse),
    onError: (error) => {
      if (!stopped) handlers.onFailed(failureOf(error, isOnline()));
    },
  });

  const begin = async () => {
    if (!sentInSeveralRequests(file)) {
      upload.start();
      return;
    }
    try {
      const previous = await upload.findPreviousUploads();
      if (stopped) return;
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
    } catch {
      // Storage unreadable: the file starts from its first byte.
    }
    if (!stopped) upload.start();
  };
  void begin();

  return {
    stop() {
      stopped = true;
      void upload.abort(false);
    },
    restart() {
      stopped = false;
      // tus resumes from its upload URL (HEAD, then PATCH from the offset), or creates it anew.
      if (upload.url) upload.start();
      else void begin();
    },
    async cancel() {
      stopped = true;
      // Aborts the request and sends DELETE for an upload the server already holds.
      await upload.abort(true);
    },
  };
}

/**
 * The pick is over: the server writes its one DICOM_UPLOAD audit entry now. Best effort: if this
 * request is lost, the server writes the entry itself a minute after the pick's last file.
 */
export function reportBatch(batch: string): void {
  api.post(`${UPLOADS_PATH}/batches/${batch}/report`).catch(() => {});
}

/** Cancelling a file not yet started: a part of it sent before a reload is deleted on the server. */
export async function discardStoredUpload(context: TusContext, file: CheckedFile): Promise<void> {
  if (!sentInSeveralRequests(file)) return;
  const fingerprint = await context.fingerprint(file);
  if (!fingerprint) return;
  for (const previous of await context.storage.findUploadsByFingerprint(fingerprint)) {
    if (previous.uploadUrl) {
      await Upload.terminate(previous.uploadUrl, {
        ...requestOptions(context),
        retryDelays: [0, 1_000],
      }).catch(() => {});
    }
    await context.storage.removeUpload(previous.urlStorageKey);
  }
}

/** A file found already stored: its resume entry is of no use. */
export async function forgetStoredUpload(context: TusContext, file: CheckedFile): Promise<void> {
  if (!sentInSeveralRequests(file)) return;
  const fingerprint = await context.fingerprint(file);
  if (!fingerprint) return;
  for (const previous of await context.storage.findUploadsByFingerprint(fingerprint)) {
    await context.storage.removeUpload(previous.urlStorageKey);
  }
}
