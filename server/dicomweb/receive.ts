import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DICOM_MARKER_OFFSET } from '../../common/types/upload';
import { AppError } from '../lib/errors';
import { DICOM_HEAD_BYTES, PARTS_FINISHING_AT_ONCE, PartFile } from '../lib/multipart/part-file';
import { Backlog } from '../lib/parallel';
import { MultipartError, MultipartParser, parseMediaType } from '../lib/multipart/parser';
import { readMultipartBody } from '../lib/multipart/read-body';

/**
 * One part of a STOW-RS body, on disk under a generated name with its preamble blank; `refused`
 * when it was not kept.
 */
export type ReceivedPart = {
  index: number;
  /** The part's own Content-Type, when it had one. */
  contentType: string | undefined;
  path: string;
  size: number;
  /** Its first bytes as sent (up to 64 KB), where its header is read from. */
  head: Buffer;
  refused?: 'too_large' | 'too_many';
};

/**
 * `maxRequestBytes`: what one request may keep on disk in all. A PACS may send its body chunked,
 * with no length to refuse up front, so the parts are counted as they come: one that would take
 * the request over is refused like a part over `maxPartBytes`.
 */
export type ReceiveLimits = { maxPartBytes: number; maxParts: number; maxRequestBytes: number };

/** The boundary of a `multipart/related; type="application/dicom"` request (PS3.18 10.5.1); else 415. */
export function stowBoundary(contentType: string | undefined): string {
  const mediaType = parseMediaType(contentType ?? '');
  const boundary = mediaType?.parameters.get('boundary');
  const rootType = mediaType?.parameters.get('type')?.toLowerCase();
  if (mediaType?.type !== 'multipart/related' || !boundary || (rootType !== undefined && rootType !== 'application/dicom')) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', { supported: ['multipart/related; type="application/dicom"'] });
  }
  return boundary;
}

/**
 * Streams the parts of `body` to files in a directory of its own under `incomingDir` (at most
 * about 2 MB of a part in memory), runs `work` on them and removes the directory whatever
 * happened: what `work` keeps it must rename away first. A part over the size limit, or beyond
 * the number of parts, is not written but still reported, so it fails alone. A malformed or cut
 * body is 400.
 */
export async function withReceivedParts<T>(
  body: Readable,
  boundary: string,
  incomingDir: string,
  limits: ReceiveLimits,
  work: (parts: ReceivedPart[]) => Promise<T>,
): Promise<T> {
  const directory = path.join(incomingDir, randomUUID());
  await mkdir(directory, { recursive: true });
  try {
    const parts = await receive(body, boundary, directory, limits);
    if (parts.length === 0) throw badBody('The body has no parts.');
    return await work(parts);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

type Writing = { part: ReceivedPart; file: PartFile | undefined };

async function receive(body: Readable, boundary: string, directory: string, limits: ReceiveLimits): Promise<ReceivedPart[]> {
  let parser: MultipartParser;
  try {
    parser = new MultipartParser(boundary);
  } catch {
    throw badBody('The boundary parameter is not a valid boundary.');
  }
  const parts: ReceivedPart[] = [];
  const finishing = new Backlog(PARTS_FINISHING_AT_ONCE);
  let current: Writing | undefined;
  /** What the parts before the current one keep on disk. */
  let keptBefore = 0;
  try {
    await readMultipartBody(body, parser, {
      part: (headers) => {
        current = startPart(parts.length, headers.get('content-type'), directory, limits);
        parts.push(current.part);
      },
      data: (bytes) => current && writeData(current, bytes, limits, keptBefore),
      partEnd: async () => {
        if (!current) return;
        const ended = current;
        current = undefined;
        if (!ended.part.refused) keptBefore += ended.part.size;
        await finishing.add(finishPart(ended));
      },
    });
    await finishing.done();
  } catch (error) {
    await current?.file?.discard();
    // Nothing is left writing into the directory as it is removed.
    await finishing.done().catch(() => undefined);
    if (error instanceof MultipartError) throw badBody(`The multipart/related body is malformed: ${error.message}.`);
    throw error;
  }
  return parts;
}

function startPart(index: number, contentType: string | undefined, directory: string, limits: ReceiveLimits): Writing {
  const part: ReceivedPart = { index, contentType, path: path.join(directory, `${index}.dcm`), size: 0, head: EMPTY };
  if (index >= limits.maxParts) {
    part.refused = 'too_many';
    return { part, file: undefined };
  }
  // The preamble is written as zeros: it may carry executable content (PS3.10 7.5), and no copy
  // of the file is made afterwards to blank it.
  const file = new PartFile(part.path, { headBytes: DICOM_HEAD_BYTES, blankBytes: DICOM_MARKER_OFFSET });
  return { part, file };
}

async function writeData(writing: Writing, bytes: Buffer, limits: ReceiveLimits, keptBefore: number): Promise<void> {
  const { part, file } = writing;
  if (part.refused || !file) return;
  part.size += bytes.length;
  if (part.size > limits.maxPartBytes || keptBefore + part.size > limits.maxRequestBytes) {
    part.refused = 'too_large';
    await file.discard();
    return;
  }
  await file.write(bytes);
}

async function finishPart({ part, file }: Writing): Promise<void> {
  if (part.refused || !file) return;
  part.head = (await file.finish()).head;
}

const EMPTY = Buffer.alloc(0);

function badBody(message: string): AppError {
  return new AppError(400, 'VALIDATION', { issues: [{ path: 'body', message }] });
}
