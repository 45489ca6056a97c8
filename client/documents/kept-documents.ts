/**
 * What names a kept document, apart from the device database itself (./offline-copies.ts): the
 * result page builds these on its first render, and the database code loads only after it.
 */
import type { KeptDocumentType } from '../lib/device-db';

/** A document as it is kept: a document of the result (ScreeningDocument fits), or the facilities list. */
export type KeptDocument = { id: string; name: string; type: KeptDocumentType; language: 'pl' | 'en' | 'de' | null };

/**
 * The facilities list of screening `screeningId` as a kept document. GET
 * /screening/download-wykaz names no document, so its device id is made from the screening: one
 * per screening, deleted with it.
 */
export function facilitiesListDocument(screeningId: number): KeptDocument {
  return { id: `facilities-list-${screeningId}`, name: 'facilities-list.pdf', type: 'facilitiesList', language: null };
}
