import type { Response } from 'express';

/**
 * RFC 5987 `ext-value` of a file name: UTF-8, percent-encoded, with the characters
 * encodeURIComponent leaves alone but the RFC's attr-char excludes escaped as well.
 */
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A plain-ASCII stand-in for the few old clients that ignore `filename*`. */
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
}

export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${asciiFallback(fileName)}"; filename*=UTF-8''${encodeExtValue(fileName)}`;
}

/**
 * Answers a stored PDF as a download. Personal documents must never sit in a cache, and the
 * public instructions get the same header so one rule covers every file of the API.
 */
export function sendPdf(res: Response, bytes: Buffer, fileName: string): void {
  res.set({
    'Content-Type': 'application/pdf',
    'Content-Disposition': attachmentDisposition(fileName),
    'Content-Length': String(bytes.length),
    'Cache-Control': 'no-store',
  });
  res.end(bytes);
}
