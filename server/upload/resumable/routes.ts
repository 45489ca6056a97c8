import { Router, type Request, type RequestHandler, type Response } from 'express';
import { Metadata, TUS_RESUMABLE } from '@tus/utils';
import { z } from 'zod';
import { MAX_KNOWN_UIDS_PER_REQUEST, type KnownInstancesResponse } from '../../../common/types/upload';
import { AppError, notFound } from '../../lib/errors';
import { displayName } from '../multipart';
import type { UploadService, Uploader } from '../service';
import { ResumableFileStore } from './file-store';
import { UPLOAD_ID, wholeUploadFileOf } from './layout';
import { PostgresLocker } from './locker';
import { createResumableUploads, type ResumableDeps } from './service';
import { createTusBridge, outcomeHeaders } from './tus';

const TUS_CONTENT_TYPE = 'application/offset+octet-stream';
const DECIMAL = /^\d{1,16}$/;
const SOP_INSTANCE_UID = /^[0-9]+(\.[0-9]+)*$/;
/** The client's id of one pick (a UUID): its files share one audit entry. */
const BATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const knownRequest = z.object({
  sopInstanceUids: z.array(z.string().max(64).regex(SOP_INSTANCE_UID)).max(MAX_KNOWN_UIDS_PER_REQUEST),
});

const badRequest = () => new AppError(400, 'UPLOAD_BAD_REQUEST', {}, { 'Tus-Resumable': TUS_RESUMABLE });

/**
 * `/api/dicom/uploads` (docs/api.md "Resumable DICOM upload"): tus 1.0.0 with creation,
 * creation-with-upload, termination and expiration, plus the outcome of an upload and the
 * instances she already has. Mounted inside the upload router, so patient-portal sessions only,
 * CSRF checked in front; every request naming an upload that is not hers answers 404.
 */
export function resumableUploadsRouter(
  deps: ResumableDeps,
  uploads: UploadService,
  uploaderOf: (req: Request) => Promise<Uploader>,
): Router {
  const locker = new PostgresLocker(deps.db, deps.logger);
  const resumable = createResumableUploads(deps, uploads, locker);
  const store = new ResumableFileStore(deps.db, resumable.partial, resumable.expiryMs, (id) => wholeUploadFileOf(deps.storage, id));
  const tus = createTusBridge({ store, locker, resumable, maxFileBytes: deps.config.upload.maxFileBytes, logger: deps.logger });
  const router = Router();

  /** tus requests that name an upload go on only when it is hers and alive. */
  const ownUpload = async (req: Request) => {
    const uploader = await uploaderOf(req);
    const id = String(req.params.id);
    if (!UPLOAD_ID.test(id)) throw notFound();
    return { uploader, id, row: await resumable.ownedUpload(uploader, id) };
  };

  router.post('/known', async (req, res) => {
    const parsed = knownRequest.safeParse(req.body);
    if (!parsed.success) throw new AppError(400, 'UPLOAD_BAD_REQUEST');
    const answer: KnownInstancesResponse = { known: await resumable.known(await uploaderOf(req), parsed.data.sopInstanceUids) };
    res.json(answer);
  });

  router.post('/batches/:batch/report', async (req, res) => {
    const batch = String(req.params.batch);
    if (!BATCH_ID.test(batch)) throw new AppError(400, 'UPLOAD_BAD_REQUEST');
    await resumable.reportBatchOf(await uploaderOf(req), batch);
    res.status(204).end();
  });

  router.get('/:id/outcome', async (req, res) => {
    const { uploader, id } = await ownUpload(req);
    res.json(await resumable.outcomeOf(uploader, id));
  });

  router.post('/', async (req, res) => {
    const uploader = await uploaderOf(req);
    await tus.serve(req, res, { uploader, creation: creationOf(req, deps.config.upload.maxFileBytes) });
  });

  router.patch('/:id', async (req, res) => {
    const { uploader, row } = await ownUpload(req);
    checkPatch(req);
    // Complete already: a retried last request gets the same answer; any other offset is a conflict.
    if (row.outcome) return answerCompleted(req, res, row.length, row.outcome);
    await tus.serve(req, res, { uploader });
  });

  router.delete('/:id', async (req, res) => {
    const { uploader } = await ownUpload(req);
    checkTusVersion(req);
    await tus.serve(req, res, { uploader });
  });

  // HEAD and OPTIONS are middleware, not routes: Express would answer a HEAD from a GET route, and
  // the route check of docs/api.md (server/api-docs.int.test.ts) knows GET, POST, PUT, PATCH, DELETE.
  const head: RequestHandler = async (req, res, next) => {
    if (req.method !== 'HEAD' || req.path !== '/') return next();
    const { uploader } = await ownUpload(req);
    checkTusVersion(req);
    await tus.serve(req, res, { uploader });
  };
  router.use('/:id', head);
  router.use(async (req, res, next) => {
    if (req.method !== 'OPTIONS') return next();
    await tus.serve(req, res, { uploader: await uploaderOf(req) });
  });

  return router;
}

/**
 * A creation as docs/api.md allows it, refused before tus or the disk see a byte: a decimal
 * `Upload-Length` within the file limit, `Upload-Metadata` with a `name`, no deferred length or
 * concatenation, and a body (creation-with-upload) only as `application/offset+octet-stream`.
 * The quota is checked when the upload is reserved (service.ts), or, for a body that brings the
 * whole file, when it is stored.
 */
function creationOf(req: Request, maxFileBytes: number): { length: number; name: string; batch?: string; whole: boolean } {
  checkTusVersion(req);
  if (req.get('upload-defer-length') !== undefined || req.get('upload-concat') !== undefined) throw badRequest();
  const declared = req.get('upload-length') ?? '';
  if (!DECIMAL.test(declared) || !Number.isSafeInteger(Number(declared))) throw badRequest();
  const length = Number(declared);
  if (length > maxFileBytes) throw new AppError(413, 'UPLOAD_FILE_TOO_LARGE', { maxFileBytes }, { 'Tus-Resumable': TUS_RESUMABLE });
  let metadata: Record<string, string | null>;
  try {
    metadata = Metadata.parse(req.get('upload-metadata'));
  } catch {
    throw badRequest();
  }
  const name = displayName(metadata.name ?? '');
  if (!name) throw badRequest();
  const batch = metadata.batch ?? undefined;
  if (batch !== undefined && !BATCH_ID.test(batch)) throw badRequest();
  const bodyLength = Number(req.get('content-length') ?? 0);
  const chunked = req.get('transfer-encoding') !== undefined;
  if ((bodyLength > 0 || chunked) && !isTusBody(req)) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', {}, { 'Tus-Resumable': TUS_RESUMABLE });
  }
  // The body is the whole file (most DICOM files fit in the first request): Node reads exactly Content-Length bytes or fails the request.
  const whole = length > 0 && bodyLength === length && !chunked;
  return { length, name, batch, whole };
}

function checkPatch(req: Request): void {
  checkTusVersion(req);
  if (!isTusBody(req)) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', {}, { 'Tus-Resumable': TUS_RESUMABLE });
  if (!DECIMAL.test(req.get('upload-offset') ?? '') || req.get('upload-length') !== undefined) throw badRequest();
}

/** tus 1.0.0 is the only version served (412 otherwise, as the protocol says). */
function checkTusVersion(req: Request): void {
  if (req.get('tus-resumable') !== TUS_RESUMABLE) {
    throw new AppError(412, 'UPLOAD_BAD_REQUEST', {}, { 'Tus-Resumable': TUS_RESUMABLE, 'Tus-Version': TUS_RESUMABLE });
  }
}

function isTusBody(req: Request): boolean {
  return (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === TUS_CONTENT_TYPE;
}

function answerCompleted(req: Request, res: Response, length: number, outcome: Parameters<typeof outcomeHeaders>[0]): void {
  const sendsNothing = Number(req.get('content-length') ?? 0) === 0;
  if (Number(req.get('upload-offset')) !== length || !sendsNothing) {
    throw new AppError(409, 'UPLOAD_OFFSET_CONFLICT', {}, { 'Tus-Resumable': TUS_RESUMABLE });
  }
  res
    .status(204)
    .set({ 'Tus-Resumable': TUS_RESUMABLE, 'Upload-Offset': String(length), ...outcomeHeaders(outcome) })
    .end();
}
