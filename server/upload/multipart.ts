import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { UploadLimits } from '../../common/types/upload';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import type { JobQueue } from '../lib/job-queue';
import { PartHeaderSanitizer, UNNAMEABLE_MARK } from './part-header-sanitizer';
import { RESUMABLE_FOLDER } from './resumable/layout';

/** The multipart field that carries the files (docs/api.md "DICOM upload"). */
const UPLOAD_FIELD = 'dicoms';
/** A name longer than this is cut before it is echoed in the `refused` list. */
const MAX_NAME_LENGTH = 255;
/**
 * Directories of requests older than this can only be left by a process that died mid-upload:
 * Node cuts any request after 5 minutes (`requestTimeout`), so an hour leaves a wide margin.
 */
const STALE_AFTER_MS = 60 * 60 * 1000;
/** How often the clean-up runs: debris of a crash goes within the hour after it is stale. */
const SWEEP_SECONDS = 15 * 60;

/** The limits one request is held to; the answer of `GET /api/dicom/limits` adds the quota. */
type RequestLimits = Pick<UploadLimits, 'maxFileBytes' | 'maxFilesPerRequest' | 'maxRequestBytes'>;

/**
 * One file of the request, written under a generated name; `clientName` never becomes a path.
 * `unnameable`: its name held a control character (it is refused, reason `bad_name`).
 */
export type ReceivedFile = { path: string; size: number; clientName: string; unnameable?: boolean };

/**
 * Streams the request's files to disk (never to memory) in a directory of its own under
 * `incomingDir`, runs `work` on them, and removes the directory whatever happened: neither an
 * aborted body, a broken limit nor a failure of `work` leaves anything there. Whatever `work`
 * wants to keep it must move out (a rename) before it returns.
 */
export async function withReceivedFiles<T>(
  req: Request,
  res: Response,
  incomingDir: string,
  limits: RequestLimits,
  work: (files: ReceivedFile[]) => Promise<T>,
): Promise<T> {
  checkEnvelope(req, limits);
  const directory = path.join(incomingDir, randomUUID());
  await mkdir(directory, { recursive: true });
  try {
    const files = await receive(req, res, directory, limits);
    if (files.length === 0) throw new AppError(400, 'UPLOAD_NO_FILES');
    return await work(files);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Refuses before reading a byte of the body: what is not a bounded multipart body. */
function checkEnvelope(req: Request, limits: RequestLimits): void {
  if (!req.is('multipart/form-data')) throw new AppError(400, 'UPLOAD_BAD_REQUEST');
  // Browsers always send the length of a FormData body; Node stops reading the body there, so the
  // declared length is a hard cap on what this request can write to disk.
  const declared = Number(req.get('content-length'));
  if (!req.get('content-length') || !Number.isSafeInteger(declared)) throw new AppError(400, 'UPLOAD_BAD_REQUEST');
  if (declared > limits.maxRequestBytes) throw new AppError(413, 'PAYLOAD_TOO_LARGE', { maxRequestBytes: limits.maxRequestBytes });
}

/** multer 2 feeds busboy through this when given (its typings do not know it yet). */
type MulterOptions = multer.Options & { streamHandler(req: Request, busboy: NodeJS.WritableStream): void };

async function receive(req: Request, res: Response, directory: string, limits: RequestLimits): Promise<ReceivedFile[]> {
  const options: MulterOptions = {
    // Multer's disk storage names each file with 16 random bytes in hex.
    storage: multer.diskStorage({ destination: directory }),
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFilesPerRequest, fields: 0, fieldNameSize: 100, headerPairs: 100 },
    // The browser's relative path (a folder upload) is only shown back in `refused`.
    preservePath: true,
    defParamCharset: 'utf8',
    streamHandler: feedThroughSanitizer,
  };
  const upload = multer(options).array(UPLOAD_FIELD);
  await new Promise<void>((resolve, reject) =>
    upload(req, res, (error?: unknown) => (error ? reject(uploadError(error, limits)) : resolve())),
  );
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  return files.map((file) => ({
    path: file.path,
    size: file.size,
    clientName: displayName(file.originalname),
    unnameable: file.originalname.includes(UNNAMEABLE_MARK),
  }));
}

/**
 * The body goes to busboy through PartHeaderSanitizer, so a file named with a control character
 * is refused alone instead of its whole batch. Once busboy is done (finished or failed), the
 * sanitizer lets go of it, as multer lets go of the request.
 */
function feedThroughSanitizer(req: Request, busboy: NodeJS.WritableStream): void {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.get('content-type') ?? '');
  if (!boundary) {
    req.pipe(busboy); // busboy refuses it, as before
    return;
  }
  const sanitizer = new PartHeaderSanitizer(boundary[1] ?? boundary[2]!);
  req.pipe(sanitizer).pipe(busboy);
  busboy.once('close', () => sanitizer.unpipe(busboy));
  busboy.once('error', () => sanitizer.unpipe(busboy));
}

/** Every failure of the body as the stable code of docs/api.md; a failing disk stays a 500. */
function uploadError(error: unknown, limits: RequestLimits): unknown {
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return new AppError(413, 'UPLOAD_FILE_TOO_LARGE', { maxFileBytes: limits.maxFileBytes });
    if (error.code === 'LIMIT_FILE_COUNT' || error.code === 'LIMIT_PART_COUNT') {
      return new AppError(413, 'UPLOAD_TOO_MANY_FILES', { maxFilesPerRequest: limits.maxFilesPerRequest });
    }
    return new AppError(400, 'UPLOAD_BAD_REQUEST');
  }
  const systemError = typeof error === 'object' && error !== null && 'syscall' in error;
  // Anything else is a malformed or aborted body (busboy's "Unexpected end of form" ...).
  return systemError ? error : new AppError(400, 'UPLOAD_BAD_REQUEST');
}

/** Control characters out, length bounded: the name is only ever echoed back as text. */
export function displayName(name: string): string {
  const printable = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replaceAll(UNNAMEABLE_MARK, '?')
    .trim();
  return printable.length > MAX_NAME_LENGTH ? `…${printable.slice(-(MAX_NAME_LENGTH - 1))}` : printable;
}

/**
 * The clean-up of `incomingDir` as a periodic job on the shared queue, the first run at start: a
 * crash mid-upload leaves nothing behind for long, restart or not.
 */
export function startIncomingSweep(deps: { queue: JobQueue; incomingDir: string; clock: Clock }): void {
  deps.queue.every('incoming-upload-sweep', SWEEP_SECONDS, () => removeStaleIncoming(deps.incomingDir, deps.clock()));
}

/**
 * Removes what a process that died mid-upload left under `incomingDir`. The folder of resumable
 * uploads is not such debris: its files live until they expire (resumable/expiry.ts).
 */
export async function removeStaleIncoming(incomingDir: string, now: number): Promise<void> {
  const names = await readdir(incomingDir).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry !== RESUMABLE_FOLDER)) {
    const entry = path.join(incomingDir, name);
    const info = await stat(entry).catch(() => undefined);
    // Best effort: what cannot be removed now is tried again at the next start.
    if (info && now - info.mtimeMs > STALE_AFTER_MS) await rm(entry, { recursive: true, force: true }).catch(() => undefined);
  }
}
