import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request } from 'express';
import type { UploadLimits } from '../../common/types/upload';
import { DICOM_MARKER_OFFSET } from '../../common/types/upload';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import type { JobQueue } from '../lib/job-queue';
import { DICOM_HEAD_BYTES, PARTS_FINISHING_AT_ONCE, PartFile } from '../lib/multipart/part-file';
import { Backlog } from '../lib/parallel';
import { MultipartParser, parseContentDisposition, parseMediaType } from '../lib/multipart/parser';
import { readMultipartBody } from '../lib/multipart/read-body';
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
 * `head`: its first bytes as sent, when it came through this receiver or the resumable upload's
 * request that created it (resumable/file-store.ts), which wrote its preamble blank; a file without
 * one (a resumable upload sent in several requests) may still have its preamble as sent.
 */
export type ReceivedFile = { path: string; size: number; clientName: string; unnameable?: boolean; head?: Buffer };

/**
 * Streams the request's files to disk (never to memory) in a directory of its own under
 * `incomingDir`, runs `work` on them, and removes the directory whatever happened: neither an
 * aborted body, a broken limit nor a failure of `work` leaves anything there. Whatever `work`
 * wants to keep it must move out (a rename) before it returns.
 */
export async function withReceivedFiles<T>(
  req: Request,
  incomingDir: string,
  limits: RequestLimits,
  work: (files: ReceivedFile[]) => Promise<T>,
): Promise<T> {
  const boundary = checkEnvelope(req, limits);
  const directory = path.join(incomingDir, randomUUID());
  await mkdir(directory, { recursive: true });
  try {
    const files = await receive(req, boundary, directory, limits);
    if (files.length === 0) throw new AppError(400, 'UPLOAD_NO_FILES');
    return await work(files);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Refuses before reading a byte of the body what is not a bounded multipart body; answers its boundary. */
function checkEnvelope(req: Request, limits: RequestLimits): string {
  const mediaType = parseMediaType(req.get('content-type') ?? '');
  const boundary = mediaType?.parameters.get('boundary');
  if (mediaType?.type !== 'multipart/form-data' || !boundary || !MultipartParser.isBoundary(boundary)) {
    throw new AppError(400, 'UPLOAD_BAD_REQUEST');
  }
  // Browsers always send the length of a FormData body; Node stops reading the body there, so the
  // declared length is a hard cap on what this request can write to disk.
  const declared = Number(req.get('content-length'));
  if (!req.get('content-length') || !Number.isSafeInteger(declared)) throw new AppError(400, 'UPLOAD_BAD_REQUEST');
  if (declared > limits.maxRequestBytes) throw new AppError(413, 'PAYLOAD_TOO_LARGE', { maxRequestBytes: limits.maxRequestBytes });
  return boundary;
}

type Receiving = { file: PartFile; name: string };

/**
 * The files of a multipart/form-data body (the browser's FormData), each written to a file of its
 * own as it arrives, its preamble written blank. One file over the size limit, or one too many,
 * refuses the whole request (the page splits a pick into batches that fit).
 */
async function receive(req: Request, boundary: string, directory: string, limits: RequestLimits): Promise<ReceivedFile[]> {
  const files: ReceivedFile[] = [];
  const finishing = new Backlog(PARTS_FINISHING_AT_ONCE);
  let current: Receiving | undefined;
  try {
    await readMultipartBody(req, new MultipartParser(boundary), {
      part: async (headers) => {
        const name = uploadedFileName(headers);
        // A file input left empty sends a part without a name and without content.
        if (name === '') return;
        if (files.length >= limits.maxFilesPerRequest) {
          throw new AppError(413, 'UPLOAD_TOO_MANY_FILES', { maxFilesPerRequest: limits.maxFilesPerRequest });
        }
        const filePath = path.join(directory, randomUUID());
        current = { file: new PartFile(filePath, { headBytes: DICOM_HEAD_BYTES, blankBytes: DICOM_MARKER_OFFSET }), name };
      },
      data: async (bytes) => {
        if (!current) return;
        if (current.file.size + bytes.length > limits.maxFileBytes) {
          throw new AppError(413, 'UPLOAD_FILE_TOO_LARGE', { maxFileBytes: limits.maxFileBytes });
        }
        await current.file.write(bytes);
      },
      partEnd: async () => {
        if (!current) return;
        const { file, name } = current;
        current = undefined;
        const unnameable = hasControlCharacter(name);
        const received: ReceivedFile = {
          path: file.path,
          size: file.size,
          clientName: displayName(unnameable ? markControls(name) : name),
          unnameable,
        };
        files.push(received);
        // Written and closed behind the reading of the next parts; its head is there once it is.
        await finishing.add(file.finish().then(({ head }) => void (received.head = head)));
      },
    });
    await finishing.done();
  } catch (error) {
    await current?.file.discard();
    // Nothing is left writing into the directory as it is removed.
    await finishing.done().catch(() => undefined);
    throw uploadError(error);
  }
  return files;
}

/**
 * The name the browser sent with a file of the `dicoms` field (its relative path in a folder
 * upload, raw UTF-8 or RFC 5987's `filename*`); a part of another field, or one that is not a
 * file, is a request the page never sends.
 */
function uploadedFileName(headers: Map<string, string>): string {
  const disposition = parseContentDisposition(headers.get('content-disposition') ?? '');
  const { parameters } = disposition ?? { parameters: new Map<string, string>() };
  const name = extendedValue(parameters.get('filename*')) ?? parameters.get('filename');
  if (disposition?.type !== 'form-data' || parameters.get('name') !== UPLOAD_FIELD || name === undefined) {
    throw new AppError(400, 'UPLOAD_BAD_REQUEST');
  }
  return name;
}

/** `UTF-8''%e2%82%ac.dcm` -> `€.dcm`; undefined when absent or not decodable. */
function extendedValue(value: string | undefined): string | undefined {
  const match = /^utf-8'[^']*'(.*)$/i.exec(value ?? '');
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

// A tab is whitespace in a header; every other C0 control and DEL make a name that cannot be shown.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

function hasControlCharacter(name: string): boolean {
  return name.search(CONTROL) !== -1;
}

/** The name shown back for one that cannot be named: each control character a '?'. */
function markControls(name: string): string {
  return name.replace(CONTROL, '?');
}

/** Every failure of the body as the stable code of docs/api.md; a failing disk stays a 500. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const systemError = typeof error === 'object' && error !== null && 'syscall' in error;
  // Anything else is a malformed or cut body (MultipartError, a connection reset mid-body).
  return systemError ? error : new AppError(400, 'UPLOAD_BAD_REQUEST');
}

/** Control characters out, length bounded: the name is only ever echoed back as text. */
export function displayName(name: string): string {
  const printable = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
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
