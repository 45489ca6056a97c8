import { Dexie, type Table } from 'dexie';

/**
 * The ONE IndexedDB database of the portal: offline copies of results and of the patient's lists,
 * kept on purpose because the service worker never caches /api. Every read goes through an
 * `ownerKey` (`u:<userId>` for a patient, `g:<screeningId>` for a guest), so one user never sees
 * another user's copies.
 */
export type OwnerKey = string;

export type ScreeningCopy = {
  ownerKey: OwnerKey;
  screeningId: number;
  /** The answer of GET /api/screening/result as it was shown. */
  result: unknown;
  savedAt: string;
};

/** The facilities list has no document id of its own; it is kept under one made from its screening. */
type KeptDocumentType = 'description' | 'referral' | 'facilitiesList';

export type DocumentCopy = {
  ownerKey: OwnerKey;
  documentId: string;
  screeningId: number;
  name: string;
  type: KeptDocumentType;
  language: 'pl' | 'en' | 'de' | null;
  pdf: Blob;
  savedAt: string;
};

/** The lists of the screenings page kept for offline reading, one of each kind per owner. */
export type KeptListKind = 'screenings' | 'referrals';

export type ListCopy = {
  ownerKey: OwnerKey;
  kind: KeptListKind;
  /** The unfiltered answer of GET /api/screenings or /api/screenings/referrals as it was shown. */
  list: unknown;
  savedAt: string;
};

/**
 * A screening's image set kept for offline viewing, only when the patient asked for it ("Keep
 * images on this device"). The set row is written after all its images, so a set that is listed
 * always has every image's bytes.
 */
export type ImageSetCopy = {
  ownerKey: OwnerKey;
  screeningId: number;
  /** The set as GET /api/images answered it (an ImageSet of kind 'screening'). */
  set: unknown;
  /** The bytes of all its images, for the device storage limit she sees. */
  sizeBytes: number;
  savedAt: string;
};

/** One kept DICOM file of a kept image set. */
export type ImageCopy = {
  ownerKey: OwnerKey;
  imageId: string;
  screeningId: number;
  bytes: Blob;
  savedAt: string;
};

type PortalDb = Dexie & {
  screenings: Table<ScreeningCopy, [OwnerKey, number]>;
  documents: Table<DocumentCopy, [OwnerKey, string]>;
  lists: Table<ListCopy, [OwnerKey, KeptListKind]>;
  imageSets: Table<ImageSetCopy, [OwnerKey, number]>;
  images: Table<ImageCopy, [OwnerKey, string]>;
};

let opened: PortalDb | null = null;

function deviceDb(): PortalDb {
  if (opened) return opened;
  const db = new Dexie('portal') as PortalDb;
  db.version(1).stores({
    screenings: '[ownerKey+screeningId], ownerKey',
    documents: '[ownerKey+documentId], ownerKey, [ownerKey+screeningId]',
  });
  // Versions are only ever added: a device that holds version 1 upgrades in place, and the stores
  // a later version does not name are kept as they are, with their copies.
  db.version(2).stores({ lists: '[ownerKey+kind], ownerKey' });
  db.version(3).stores({
    imageSets: '[ownerKey+screeningId], ownerKey',
    images: '[ownerKey+imageId], ownerKey, [ownerKey+screeningId]',
  });
  opened = db;
  return db;
}

export async function putScreeningCopy(copy: ScreeningCopy): Promise<void> {
  await deviceDb().screenings.put(copy);
}

export async function putDocumentCopy(copy: DocumentCopy): Promise<void> {
  await deviceDb().documents.put(copy);
}

export function getScreeningCopy(ownerKey: OwnerKey, screeningId: number): Promise<ScreeningCopy | undefined> {
  return deviceDb().screenings.get([ownerKey, screeningId]);
}

export function getDocumentCopy(ownerKey: OwnerKey, documentId: string): Promise<DocumentCopy | undefined> {
  return deviceDb().documents.get([ownerKey, documentId]);
}

export async function putListCopy(copy: ListCopy): Promise<void> {
  await deviceDb().lists.put(copy);
}

export function getListCopy(ownerKey: OwnerKey, kind: KeptListKind): Promise<ListCopy | undefined> {
  return deviceDb().lists.get([ownerKey, kind]);
}

export function listListCopies(ownerKey: OwnerKey): Promise<ListCopy[]> {
  return deviceDb().lists.where('ownerKey').equals(ownerKey).toArray();
}

export function listScreeningCopies(ownerKey: OwnerKey): Promise<ScreeningCopy[]> {
  return deviceDb().screenings.where('ownerKey').equals(ownerKey).toArray();
}

export function listDocumentCopies(ownerKey: OwnerKey): Promise<DocumentCopy[]> {
  return deviceDb().documents.where('ownerKey').equals(ownerKey).toArray();
}

/** Removes one screening's copy and its documents, together. */
export async function deleteScreeningCopy(ownerKey: OwnerKey, screeningId: number): Promise<void> {
  const db = deviceDb();
  await db.transaction('rw', db.screenings, db.documents, async () => {
    await db.documents.where('[ownerKey+screeningId]').equals([ownerKey, screeningId]).delete();
    await db.screenings.delete([ownerKey, screeningId]);
  });
}

/** Removes every copy of this owner, the kept lists and images with them; other owners' copies stay. */
export async function deleteOwnerCopies(ownerKey: OwnerKey): Promise<void> {
  const db = deviceDb();
  await db.transaction('rw', [db.screenings, db.documents, db.lists, db.imageSets, db.images], async () => {
    await db.documents.where('ownerKey').equals(ownerKey).delete();
    await db.screenings.where('ownerKey').equals(ownerKey).delete();
    await db.lists.where('ownerKey').equals(ownerKey).delete();
    await db.imageSets.where('ownerKey').equals(ownerKey).delete();
    await db.images.where('ownerKey').equals(ownerKey).delete();
  });
}

export async function putImageCopy(copy: ImageCopy): Promise<void> {
  await deviceDb().images.put(copy);
}

/** Lists the set once all its images are kept (putImageCopy first). */
export async function putImageSetCopy(copy: ImageSetCopy): Promise<void> {
  await deviceDb().imageSets.put(copy);
}

export function getImageSetCopy(ownerKey: OwnerKey, screeningId: number): Promise<ImageSetCopy | undefined> {
  return deviceDb().imageSets.get([ownerKey, screeningId]);
}

export function listImageSetCopies(ownerKey: OwnerKey): Promise<ImageSetCopy[]> {
  return deviceDb().imageSets.where('ownerKey').equals(ownerKey).toArray();
}

/** How many image sets the device keeps, for every owner. */
export function countImageSetCopies(): Promise<number> {
  return deviceDb().imageSets.count();
}

export function getImageCopy(ownerKey: OwnerKey, imageId: string): Promise<ImageCopy | undefined> {
  return deviceDb().images.get([ownerKey, imageId]);
}

/** Removes one kept image set with its images (also the images of a set whose keeping broke off). */
export async function deleteImageSetCopy(ownerKey: OwnerKey, screeningId: number): Promise<void> {
  const db = deviceDb();
  await db.transaction('rw', db.imageSets, db.images, async () => {
    await db.images.where('[ownerKey+screeningId]').equals([ownerKey, screeningId]).delete();
    await db.imageSets.delete([ownerKey, screeningId]);
  });
}

/** Removes every kept image of this owner ("Remove all kept images"); her other copies stay. */
export async function deleteOwnerImages(ownerKey: OwnerKey): Promise<void> {
  const db = deviceDb();
  await db.transaction('rw', db.imageSets, db.images, async () => {
    await db.images.where('ownerKey').equals(ownerKey).delete();
    await db.imageSets.where('ownerKey').equals(ownerKey).delete();
  });
}
