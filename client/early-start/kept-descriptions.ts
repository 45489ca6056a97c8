import type { OwnerKey } from '../lib/device-db';
import type { PdfDocument } from '../lib/pdf';
import type { ScreeningResult } from '@common/types/result';
import { readKeptPdf } from '../documents/offline-copies';
import { onCopiesLocked } from '../documents/copies-lock';

/**
 * Offline, the result page opens the kept descriptions by itself (PdfViewer's `openWhenKept`).
 * The page knows which ones the moment it has read the kept screening, before its viewers have
 * rendered: it starts reading and opening them here, and each viewer takes its document already
 * open (issue 4: the first page drawn soon after her PIN opened her copies). Only descriptions:
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

/**
 * Drops what was opened and not taken: a later opening of the page starts again, and when her
 * session ends (or the page stays idle) nothing read from her copies stays in memory.
 */
export function forgetKeptDescriptions(): void {
  for (const untaken of openings.values()) void untaken.then((kept) => kept?.document?.destroy());
  openings.clear();
}

onCopiesLocked(forgetKeptDescriptions);

/** Called once her kept screening was read (so her copies are open: her PIN was typed). */
export function startOpeningKeptDescriptions(ownerKey: OwnerKey, result: ScreeningResult): void {
  // What an earlier opening of the page started and no viewer took is never handed out later.
  forgetKeptDescriptions();
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
