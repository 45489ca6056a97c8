import { randomBytes } from 'node:crypto';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { Server } from '@tus/server';
import { ERRORS, TUS_RESUMABLE } from '@tus/utils';
import type { ResumableUploadOutcome } from '../../../common/types/upload';
import { AppError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Uploader } from '../service';
import type { ResumableFileStore } from './file-store';
import { UPLOAD_ID } from './layout';
import type { PostgresLocker } from './locker';
import type { ResumableUploadRow } from './repo';
import type { ResumableUploads } from './service';

/** Where the router is mounted (server/entry/patient-api.ts `/api` + upload routes `/dicom` + `/uploads`): the `Location` of an upload. */
const RESUMABLE_UPLOADS_PATH = '/api/dicom/uploads';

/** What the body stream may read ahead of the disk: a bound on memory per request, large enough to keep the pipe full. */
const READ_AHEAD_BYTES = 1024 * 1024;

/** How long a request asked to give up its upload's lease may go on writing what it has before it is cut. */
const LOCK_DRAIN_MS = 3000;

/** What one request brings to the tus hooks: who asks, and what the routes read of a creation. */
type TusRequestContext = {
  uploader: Uploader;
  /** `whole`: the creating request's body brings every byte of the file (routes.ts creationOf). */
  creation?: { length: number; name: string; batch?: string; whole: boolean };
  /** The upload this request created (a POST), once reserved (`whole`: its row is written when it is stored: ResumableUploads.unreserved). */
  created?: { row: ResumableUploadRow; whole: boolean };
  /** Set once this request stored the upload and recorded its outcome. */
  completed?: boolean;
  /** What ends with the request: the creating request's claim that nobody else knows the upload (PostgresLocker.unannounced) and what it keeps of the upload (ResumableFileStore.createdHere), an upload it completed (ResumableFileStore.completedHere). */
  endings: (() => void)[];
  /** The error tus turned into its answer, to be answered as the app's JSON instead. */
  error?: unknown;
};

/** The two completion headers of docs/api.md. */
export function outcomeHeaders(outcome: ResumableUploadOutcome): Record<string, string> {
  return outcome.outcome === 'refused'
    ? { 'Upload-Outcome': outcome.outcome, 'Upload-Refusal': outcome.reason }
    : { 'Upload-Outcome': outcome.outcome };
}

/**
 * The tus 1.0.0 server (@tus/server) behind Express. Each request is handed over as a web
 * `Request` whose body is read from the socket at most READ_AHEAD_BYTES ahead of the file store
 * (flat memory), and tus's answer goes back through Express; an error answer becomes the app's JSON
 * error (`{ code }`) with tus's status. Ownership, CSRF and the checks of a creation happen in
 * the routes before tus sees a request.
 */
export function createTusBridge(options: {
  store: ResumableFileStore;
  locker: PostgresLocker;
  resumable: ResumableUploads;
  maxFileBytes: number;
  logger: Logger;
}) {
  const { resumable, logger } = options;
  const contexts = new WeakMap<Request, TusRequestContext>();
  const contextOf = (req: Request): TusRequestContext => {
    const context = contexts.get(req);
    if (!context) throw new Error('tus request without its context');
    return context;
  };

  const server = new Server({
    path: RESUMABLE_UPLOADS_PATH,
    datastore: options.store,
    locker: options.locker,
    relativeLocation: true,
    // Same origin only: no Access-Control-Allow-Origin on any answer.
    allowedOrigins: [],
    maxSize: options.maxFileBytes,
    lockDrainTimeout: LOCK_DRAIN_MS,
    namingFunction: () => randomBytes(16).toString('hex'),
    getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID.test(lastPath) ? lastPath : undefined),
    onUploadCreate: async (req, upload) => {
      const context = contextOf(req);
      if (!context.creation) throw new Error('tus creation without checked headers');
      const { length, name, batch = upload.id, whole } = context.creation;
      const declared = { id: upload.id, length, name, batch };
      const row = whole ? resumable.unreserved(context.uploader, declared) : await resumable.reserve(context.uploader, declared);
      context.created = { row, whole };
      context.endings.push(options.locker.unannounced(upload.id), options.store.createdHere(upload.id, whole));
      // Only the name is kept (and only ever shown back), cleaned by the routes.
      return { metadata: { name } };
    },
    onUploadFinish: async (req, upload) => {
      const context = contextOf(req);
      const created = context.created && { ...context.created, head: options.store.headOf(upload.id) };
      const outcome = await resumable.complete(context.uploader, upload.id, created);
      context.completed = true;
      context.endings.push(options.store.completedHere(upload.id, upload.size!));
      return { headers: outcomeHeaders(outcome) };
    },
    onResponseError: (req, error) => {
      contextOf(req).error = error;
      return undefined;
    },
  });

  async function serve(req: ExpressRequest, res: ExpressResponse, asked: Omit<TusRequestContext, 'endings'>): Promise<void> {
    const context: TusRequestContext = { ...asked, endings: [] };
    const request = webRequestOf(req);
    contexts.set(request, context);
    let answer: Response;
    try {
      answer = await server.handleWeb(request);
    } finally {
      for (const end of context.endings) end();
    }
    if (answer.status >= 400) {
      await answer.body?.cancel();
      const uploadId = context.created?.row.id ?? (typeof req.params.id === 'string' ? req.params.id : undefined);
      const diskFailure = uploadId === undefined ? undefined : options.store.takeDiskFailure(uploadId);
      // A creation that failed never told the client where its upload is: nobody can resume it.
      if (context.created && !context.completed) await resumable.discard(context.created.row.id, context.created.whole);
      throw diskFailure ?? appErrorFor(context.error, answer.status, logger);
    }
    if (context.created && !context.completed) {
      const { row, whole } = context.created;
      // Impossible by tus's own checks (a body of every byte completes the upload), and such an
      // upload could not be resumed elsewhere: its row is written only when it is stored.
      if (whole) {
        await resumable.discard(row.id, whole);
        throw new Error('an upload sent whole did not complete');
      }
      // Its address is in the answer: if the client never gets it, nobody can resume the upload.
      // (A completed one stays: its image is stored and its outcome counts in its batch's audit entry.)
      res.once('close', () => {
        if (!res.writableFinished) void resumable.discard(row.id).catch(() => undefined);
      });
    }
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined);
  }

  return { serve };
}

/**
 * Express's request as the web `Request` tus takes, its body streamed from the socket
 * (bodyStreamOf).
 */
function webRequestOf(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.originalUrl, 'http://portal.invalid'), {
    method: req.method,
    headers,
    body: hasBody ? bodyStreamOf(req) : undefined,
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
}

/**
 * The request body as a web stream that starts reading only when tus first asks for bytes (a
 * request refused before that leaves its body to Node, which drains it), then keeps up to
 * READ_AHEAD_BYTES read ahead of the disk, pausing the socket beyond that: memory stays flat
 * whatever the file size, and the network and the disk work at the same time.
 */
function bodyStreamOf(req: ExpressRequest): ReadableStream<Uint8Array> {
  const chunks: Buffer[] = [];
  let bufferedBytes = 0;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const startReading = () => {
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bufferedBytes += chunk.length;
      if (bufferedBytes >= READ_AHEAD_BYTES) req.pause();
      notify();
    });
    req.once('end', () => {
      ended = true;
      notify();
    });
    req.once('error', (error) => {
      failure = error;
      notify();
    });
  };
  // The client went away mid-body: what arrived is kept, the rest never comes. Listened for from
  // the start: a client gone while the request waited (for its reservation, for the lease) has
  // closed it before tus first asks for bytes, and would leave that read waiting for ever.
  const gone = () => {
    if (!req.complete) failure ??= new Error('request body aborted');
    notify();
  };
  if (req.destroyed) gone();
  else req.once('close', gone);
  let reading = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!reading) {
          reading = true;
          startReading();
        }
        while (chunks.length === 0 && !ended && !failure) await new Promise<void>((resolve) => (wake = resolve));
        const chunk = chunks.shift();
        if (chunk) {
          bufferedBytes -= chunk.length;
          if (bufferedBytes < READ_AHEAD_BYTES && req.isPaused()) req.resume();
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        } else if (failure) {
          controller.error(failure);
        } else {
          controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
}

const TUS_HEADERS = { 'Tus-Resumable': TUS_RESUMABLE };

/** tus's protocol errors as the app's codes, with tus's status (docs/api.md "Resumable DICOM upload"). */
function appErrorFor(error: unknown, status: number, logger: Logger): unknown {
  if (error instanceof AppError) return new AppError(error.status, error.code, error.extra, { ...TUS_HEADERS, ...error.headers });
  if (error === ERRORS.INVALID_OFFSET) return new AppError(409, 'UPLOAD_OFFSET_CONFLICT', {}, TUS_HEADERS);
  // The lease stayed taken past the wait, or this request gave way to a newer one of the same upload.
  if (error === ERRORS.ERR_LOCK_TIMEOUT || error === ERRORS.ABORTED) return new AppError(423, 'UPLOAD_BUSY', {}, TUS_HEADERS);
  if (status === 404 || status === 410) return notFound();
  if (status === 413) return new AppError(413, 'PAYLOAD_TOO_LARGE', {}, TUS_HEADERS);
  if (status === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', {}, TUS_HEADERS);
  if (status < 500) return new AppError(status, 'UPLOAD_BAD_REQUEST', {}, TUS_HEADERS);
  // A real failure (the database, the disk) goes to the error handler, which logs it.
  if (error instanceof Error) return error;
  // tus's own 5xx: mostly a body that broke off because the client went away; its bytes so far are kept.
  logger.warn({ status, tusError: (error as { body?: string } | undefined)?.body }, 'resumable upload request failed');
  return new AppError(500, 'INTERNAL', {}, TUS_HEADERS);
}
