import {
  countImageSetCopies,
  deleteOwner,
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
  type ScreeningCopy,
} from '../lib/device-db';
import { createChangeSignal } from '../lib/change-signal';
import { dropViewerCode } from '../lib/viewer-code';
import type { ScreeningResult } from '@common/types/result';
import type { KeptDocument } from './kept-documents';
import { createOwnerKeys, keepsCopies, openFor, openJsonFor, sealFor, sealJsonFor, unlockOwner, type UnlockOutcome } from './device-keys';

/**
 * The copies a patient keeps on this device for reading offline, only once she chose to keep them
 * (startKeeping, with her PIN); each one sealed for her (./device-keys.ts). Until then, and after
 * she stops, keeping anything does nothing.
 */

/** Tells the "Saved on this device" list (and her choice's switch) that the kept copies changed. */
const changes = createChangeSignal();
export const onKeptChange = changes.subscribe;
const announceChange = changes.announce;

const screeningContext = (screeningId: number) => `screening ${screeningId}`;
const documentContext = (documentId: string) => `document ${documentId}`;
const listContext = (kind: KeptListKind) => `list ${kind}`;

export { keepsCopies };

/** She chooses to keep copies on this device: from now on what she opens is kept, sealed, openable with `pin`. */
export async function startKeeping(ownerKey: OwnerKey, pin: string): Promise<void> {
  await createOwnerKeys(ownerKey, pin);
  announceChange();
}

/** She no longer keeps copies here: every copy of hers goes, with her keys. */
export async function stopKeeping(ownerKey: OwnerKey): Promise<void> {
  await deleteOwner(ownerKey);
  await afterOwnerDeleted();
}

async function afterOwnerDeleted(): Promise<void> {
  announceChange();
  if ((await countImageSetCopies()) === 0) await dropViewerCode();
}

/** Opens her copies in this page; the last wrong PIN deletes them (device-keys.ts). */
export async function unlockKeptCopies(ownerKey: OwnerKey, pin: string): Promise<UnlockOutcome> {
  const outcome = await unlockOwner(ownerKey, pin);
  if (outcome.kind === 'erased') await afterOwnerDeleted();
  return outcome;
}

export type OfflineScreening = { result: ScreeningResult; savedAt: string };

/**
 * Keeps a document the patient opened or downloaded, with the screening data shown with it, when
 * she chose to keep copies; answers whether it was kept.
 */
export async function keepDocument(ownerKey: OwnerKey, result: ScreeningResult, document: KeptDocument, pdf: Blob): Promise<boolean> {
  const screeningId = result.screening.id;
  const sealedResult = await sealJsonFor(ownerKey, result, screeningContext(screeningId));
  if (!sealedResult) return false;
  const bytes = await pdf.arrayBuffer();
  const sealedPdf = await sealFor(ownerKey, bytes, documentContext(document.id));
  if (!sealedPdf) return false;
  const savedAt = new Date().toISOString();
  await putScreeningCopy({ ownerKey, screeningId, examinedAt: result.screening.examinedAt, result: sealedResult, savedAt });
  await putDocumentCopy({
    ownerKey,
    documentId: document.id,
    screeningId,
    type: document.type,
    language: document.language,
    sizeBytes: bytes.byteLength,
    pdf: sealedPdf,
    savedAt,
  });
  announceChange();
  return true;
}

/** A fresh answer replaces the screening data of a copy kept before; nothing new is kept. */
export async function refreshKeptScreening(ownerKey: OwnerKey, result: ScreeningResult): Promise<void> {
  const kept = await getScreeningCopy(ownerKey, result.screening.id);
  if (!kept) return;
  const sealed = await sealJsonFor(ownerKey, result, screeningContext(result.screening.id));
  if (sealed)
    await putScreeningCopy({ ...kept, examinedAt: result.screening.examinedAt, result: sealed, savedAt: new Date().toISOString() });
}

async function keptScreeningCopy(ownerKey: OwnerKey, id: number | undefined): Promise<ScreeningCopy | undefined> {
  return id !== undefined ? getScreeningCopy(ownerKey, id) : (await listScreeningCopies(ownerKey))[0];
}

/** Whether screening `id` (undefined: the guest's only one) is kept for this owner; needs no PIN. */
export async function hasKeptScreening(ownerKey: OwnerKey, id: number | undefined): Promise<boolean> {
  return (await keptScreeningCopy(ownerKey, id)) !== undefined;
}

/**
 * The kept copy of screening `id`, or of the owner's only screening when the page names none (a
 * guest); CopiesLockedError until her PIN opened her copies.
 */
export async function readKeptScreening(ownerKey: OwnerKey, id: number | undefined): Promise<OfflineScreening | null> {
  const copy = await keptScreeningCopy(ownerKey, id);
  if (!copy) return null;
  const result = await openJsonFor<ScreeningResult>(ownerKey, copy.result, screeningContext(copy.screeningId));
  return { result, savedAt: copy.savedAt };
}

/** Whether anything of this owner is on the device: a screening with its documents, or a list. */
export async function hasKeptCopies(ownerKey: OwnerKey): Promise<boolean> {
  const [screenings, lists] = await Promise.all([listScreeningCopies(ownerKey), listListCopies(ownerKey)]);
  return screenings.length > 0 || lists.length > 0;
}

export type OfflineList<T> = { list: T; savedAt: string };

/**
 * The whole list the patient was last shown replaces the one kept before, when she chose to keep
 * copies: the screenings page shows it offline, as last seen. Only an unfiltered answer is kept (a
 * filtered one is not the list).
 */
export async function keepList(ownerKey: OwnerKey, kind: KeptListKind, list: unknown): Promise<boolean> {
  const sealed = await sealJsonFor(ownerKey, list, listContext(kind));
  if (!sealed) return false;
  await putListCopy({ ownerKey, kind, list: sealed, savedAt: new Date().toISOString() });
  announceChange();
  return true;
}

/** Her kept list; CopiesLockedError until her PIN opened her copies. */
export async function readKeptList<T>(ownerKey: OwnerKey, kind: KeptListKind): Promise<OfflineList<T> | null> {
  const copy = await getListCopy(ownerKey, kind);
  return copy ? { list: await openJsonFor<T>(ownerKey, copy.list, listContext(kind)), savedAt: copy.savedAt } : null;
}

/** When the owner's lists were kept, the older first; an empty array when none is. Needs no PIN. */
export async function keptListTimes(ownerKey: OwnerKey): Promise<string[]> {
  return (await listListCopies(ownerKey)).map((copy) => copy.savedAt).sort();
}

/** Her kept document; CopiesLockedError until her PIN opened her copies. */
export async function readKeptPdf(ownerKey: OwnerKey, documentId: string): Promise<Blob | null> {
  const copy = await getDocumentCopy(ownerKey, documentId);
  if (!copy) return null;
  return new Blob([await openFor(ownerKey, copy.pdf, documentContext(documentId))], { type: 'application/pdf' });
}

export type KeptScreeningSummary = {
  screeningId: number;
  examinedAt: string;
  savedAt: string;
  documents: Array<{ documentId: string; type: DocumentCopy['type']; language: 'pl' | 'en' | 'de' | null; sizeBytes: number }>;
};

/** What the "Saved on this device" list shows, newest examination first; needs no PIN. */
export async function listKept(ownerKey: OwnerKey): Promise<KeptScreeningSummary[]> {
  const [screenings, documents] = await Promise.all([listScreeningCopies(ownerKey), listDocumentCopies(ownerKey)]);
  return screenings
    .map((copy) => ({
      screeningId: copy.screeningId,
      examinedAt: copy.examinedAt,
      savedAt: copy.savedAt,
      documents: documents
        .filter((document) => document.screeningId === copy.screeningId)
        .map(({ documentId, type, language, sizeBytes }) => ({ documentId, type, language, sizeBytes })),
    }))
    .sort((a, b) => b.examinedAt.localeCompare(a.examinedAt));
}

export async function deleteKeptScreening(ownerKey: OwnerKey, screeningId: number): Promise<void> {
  await deleteScreeningCopy(ownerKey, screeningId);
  announceChange();
}

/**
 * Every copy of this owner, her kept lists and images too; the viewer's code once no images are
 * kept for anybody. She still keeps copies from now on (stopKeeping ends that).
 */
export async function deleteAllKept(ownerKey: OwnerKey): Promise<void> {
  await deleteOwnerCopies(ownerKey);
  announceChange();
  if ((await countImageSetCopies()) === 0) await dropViewerCode();
}
