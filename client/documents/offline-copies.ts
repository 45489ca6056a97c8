import {
  countImageSetCopies,
  deleteOwnerCopies,
  deleteScreeningCopy,
  getDocumentCopy,
  getListCopy,
  getScreeningCopy,
  listDocumentCopies,
  listListCopies,
  listScreeningCopies,
  putDocumentCopy,
  putListCopy,
  putScreeningCopy,
  type DocumentCopy,
  type KeptListKind,
  type OwnerKey,
} from '../lib/device-db';
import { createChangeSignal } from '../lib/change-signal';
import { dropViewerCode } from '../lib/viewer-code';
import type { ScreeningResult } from '@common/types/result';
import type { KeptDocument } from './kept-documents';

/** Tells the "Saved on this device" list that the kept copies changed. */
const changes = createChangeSignal();
export const onKeptChange = changes.subscribe;
const announceChange = changes.announce;

export type OfflineScreening = { result: ScreeningResult; savedAt: string };

/** Keeps a document the patient opened or downloaded, with the screening data shown with it. */
export async function keepDocument(ownerKey: OwnerKey, result: ScreeningResult, document: KeptDocument, pdf: Blob): Promise<void> {
  const savedAt = new Date().toISOString();
  const screeningId = result.screening.id;
  await putScreeningCopy({ ownerKey, screeningId, result, savedAt });
  await putDocumentCopy({
    ownerKey,
    documentId: document.id,
    screeningId,
    name: document.name,
    type: document.type,
    language: document.language,
    pdf,
    savedAt,
  });
  announceChange();
}

/** A fresh answer replaces the screening data of a copy kept before; nothing new is kept. */
export async function refreshKeptScreening(ownerKey: OwnerKey, result: ScreeningResult): Promise<void> {
  const kept = await getScreeningCopy(ownerKey, result.screening.id);
  if (kept) await putScreeningCopy({ ...kept, result, savedAt: new Date().toISOString() });
}

/** The kept copy of screening `id`, or of the owner's only screening when the page names none (a guest). */
export async function readKeptScreening(ownerKey: OwnerKey, id: number | undefined): Promise<OfflineScreening | null> {
  const copy = id !== undefined ? await getScreeningCopy(ownerKey, id) : (await listScreeningCopies(ownerKey))[0];
  return copy ? { result: copy.result as ScreeningResult, savedAt: copy.savedAt } : null;
}

/** Whether anything of this owner is on the device: a screening with its documents, or a list. */
export async function hasKeptCopies(ownerKey: OwnerKey): Promise<boolean> {
  const [screenings, lists] = await Promise.all([listScreeningCopies(ownerKey), listListCopies(ownerKey)]);
  return screenings.length > 0 || lists.length > 0;
}

export type OfflineList<T> = { list: T; savedAt: string };

/**
 * The whole list the patient was last shown replaces the one kept before: the screenings page
 * shows it offline, as last seen. Only an unfiltered answer is kept (a filtered one is not the list).
 */
export async function keepList(ownerKey: OwnerKey, kind: KeptListKind, list: unknown): Promise<void> {
  await putListCopy({ ownerKey, kind, list, savedAt: new Date().toISOString() });
  announceChange();
}

export async function readKeptList<T>(ownerKey: OwnerKey, kind: KeptListKind): Promise<OfflineList<T> | null> {
  const copy = await getListCopy(ownerKey, kind);
  return copy ? { list: copy.list as T, savedAt: copy.savedAt } : null;
}

/** When the owner's lists were kept, the older first; an empty array when none is. */
export async function keptListTimes(ownerKey: OwnerKey): Promise<string[]> {
  return (await listListCopies(ownerKey)).map((copy) => copy.savedAt).sort();
}

export async function readKeptPdf(ownerKey: OwnerKey, documentId: string): Promise<Blob | null> {
  return (await getDocumentCopy(ownerKey, documentId))?.pdf ?? null;
}

export type KeptScreeningSummary = {
  screeningId: number;
  examinedAt: string;
  savedAt: string;
  documents: Array<{ documentId: string; type: DocumentCopy['type']; language: 'pl' | 'en' | 'de' | null; sizeBytes: number }>;
};

/** What the "Saved on this device" list shows, newest examination first. */
export async function listKept(ownerKey: OwnerKey): Promise<KeptScreeningSummary[]> {
  const [screenings, documents] = await Promise.all([listScreeningCopies(ownerKey), listDocumentCopies(ownerKey)]);
  return screenings
    .map((copy) => ({
      screeningId: copy.screeningId,
      examinedAt: (copy.result as ScreeningResult).screening.examinedAt,
      savedAt: copy.savedAt,
      documents: documents
        .filter((document) => document.screeningId === copy.screeningId)
        .map((document) => ({
          documentId: document.documentId,
          type: document.type,
          language: document.language,
          sizeBytes: document.pdf.size,
        })),
    }))
    .sort((a, b) => b.examinedAt.localeCompare(a.examinedAt));
}

export async function deleteKeptScreening(ownerKey: OwnerKey, screeningId: number): Promise<void> {
  await deleteScreeningCopy(ownerKey, screeningId);
  announceChange();
}

/** Every copy of this owner, her kept lists and images too; the viewer's code once no images are kept for anybody. */
export async function deleteAllKept(ownerKey: OwnerKey): Promise<void> {
  await deleteOwnerCopies(ownerKey);
  announceChange();
  if ((await countImageSetCopies()) === 0) await dropViewerCode();
}
