import type { OwnerKey } from '../lib/device-db';
import type { PdfDocument } from '../lib/pdf';
import type { ScreeningResult } from '@common/types/result';
import { readKeptPdf } from '../documents/offline-copies';

/**
 * Offline, the result page opens the kept descriptions by itself (PdfViewer's `openWhenKept`).
 * The offline gate knows which ones the moment it finds the kept screening, before the page has
 * rendered: it starts reading and opening them here, and each viewer takes its document already
 * open (issue 4: the first page within 300 ms of opening the page offline). Only descriptions:
 * the other viewers open on request, and nobody would take their documents.
 */
export type KeptPdf = { blob: Blob; document?: PdfDocument };

const openings = new Map<string, Promise<KeptPdf | null>>();
const keyOf = (ownerKey: OwnerKey, documentId: string) => `${ownerKey}\n${documentId}`;

async function openKept(ownerKey: OwnerKey, documentId: string): Promise<KeptPdf | null> {
  const [blob, { openPdf }] = await Promise.all([readKeptPdf(ownerKey, documentId), import('../lib/pdf')]);
  if (!blob) return null;
  // A copy pdf.js cannot open is still handed over, unopened: the viewer opens it again and
  // shows its own message, and the copy can still be downloaded.
  const document = await openPdf(await blob.arrayBuffer()).catch(() => undefined);
  return { blob, document };
}

export function startOpeningKeptDescriptions(ownerKey: OwnerKey, result: ScreeningResult): void {
  // What an earlier opening of the page started and no viewer took is never handed out later.
  for (const untaken of openings.values()) void untaken.then((kept) => kept?.document?.destroy());
  openings.clear();
  for (const { id, type } of result.documents) {
    if (type === 'description')
      openings.set(
        keyOf(ownerKey, id),
        openKept(ownerKey, id).catch(() => null),
      );
  }
}

/**
 * The document `documentId` of `ownerKey` read from the device, opened when it was started
 * ahead. Handed over once: the taker owns the open document and destroys it.
 */
export function takeKeptPdf(ownerKey: OwnerKey, documentId: string): Promise<KeptPdf | null> {
  const key = keyOf(ownerKey, documentId);
  const started = openings.get(key);
  openings.delete(key);
  return started ?? readKeptPdf(ownerKey, documentId).then((blob) => (blob ? { blob } : null));
}
