import path from 'node:path';
import type { NextFunction, Response } from 'express';

/** A file of the store, as a download handler hands it over. */
export type StoredFileDownload = {
  path: string;
  sizeBytes: number;
  contentType: string;
  /** Offered as the saved file's name (Content-Disposition: attachment); omit to serve it inline. */
  fileName?: string;
};

/**
 * Streams a stored file (the ISO disc image, a DICOM image). `send` answers Range requests (206,
 * 416) and conditional ones; the API's `Cache-Control: no-store` stays. An unsatisfiable range
 * answers 416 with the `Content-Range: bytes *\/size` RFC 9110 asks for, not an error body.
 */
export function sendStoredFile(res: Response, next: NextFunction, file: StoredFileDownload): void {
  const options = { acceptRanges: true, cacheControl: false, lastModified: false, headers: { 'Content-Type': file.contentType } };
  const done = (error?: Error & { status?: number }) => {
    if (!error || res.headersSent) return;
    if (error.status === 416) {
      res.status(416).set('Content-Range', `bytes */${file.sizeBytes}`).end();
      return;
    }
    next(error);
  };
  if (file.fileName === undefined) res.sendFile(path.resolve(file.path), options, done);
  else res.download(file.path, file.fileName, options, done);
}
