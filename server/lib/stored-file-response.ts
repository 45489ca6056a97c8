import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NextFunction, Response } from 'express';
import parseRange from 'range-parser';
import type { ByteRange } from './storage';

/** A file of the store, as a download handler hands it over. */
export type StoredFileDownload = {
  /** The storage key: the file's identity (its ETag), whichever backend holds it. */
  key: string;
  sizeBytes: number;
  contentType: string;
  /** The file's bytes, or those of one range: `storage.openRead` of the key. */
  open(range?: ByteRange): Promise<Readable>;
  /** Offered as the saved file's name (Content-Disposition: attachment); omit to serve it inline. */
  fileName?: string;
};

/**
 * Streams a stored file (the ISO disc image, a DICOM image) from either storage backend, answering
 * Range requests as Express's `send` does (one range: 206; unsatisfiable: 416 with the
 * `Content-Range: bytes *\/size` RFC 9110 asks for; several or malformed: the whole file, 200) and
 * conditional ones. The ETag is strong and taken from the key: a stored file is written once under
 * a fresh key and never changes, so a key names one content. The API's `Cache-Control: no-store` stays.
 */
export function sendStoredFile(res: Response, next: NextFunction, file: StoredFileDownload): void {
  send(res, file).catch((error: unknown) => {
    if (res.headersSent) {
      res.destroy(error instanceof Error ? error : undefined);
      return;
    }
    res.removeHeader('ETag');
    res.removeHeader('Accept-Ranges');
    next(error);
  });
}

async function send(res: Response, file: StoredFileDownload): Promise<void> {
  const req = res.req;
  const size = file.sizeBytes;
  const etag = `"${createHash('sha256').update(file.key).digest('base64url').slice(0, 27)}"`;
  res.set({ 'Accept-Ranges': 'bytes', ETag: etag });
  if (req.fresh) {
    res.status(304).end();
    return;
  }

  let range: ByteRange | undefined;
  const header = req.headers.range;
  if (header && /^ *bytes=/.test(header)) {
    const ranges = parseRange(size, header, { combine: true });
    // If-Range naming another version (or a date: the store keeps none) asks for the whole file.
    const ifRange = req.headers['if-range'];
    const rangeFresh = !ifRange || ifRange.includes(etag);
    if (ranges === -1 && rangeFresh) {
      res.status(416).set('Content-Range', `bytes */${size}`).end();
      return;
    }
    if (rangeFresh && Array.isArray(ranges) && ranges.length === 1) range = ranges[0]!;
  }

  // Opened before the answer's headers: a file that cannot be read is the error handler's answer.
  const body = req.method === 'HEAD' || size === 0 ? undefined : await file.open(range);
  if (file.fileName !== undefined) res.attachment(file.fileName);
  res.set('Content-Type', file.contentType);
  if (range) res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  res.set('Content-Length', String(range ? range.end - range.start + 1 : size));
  if (!body) {
    res.end();
    return;
  }
  await pipeline(body, res);
}
