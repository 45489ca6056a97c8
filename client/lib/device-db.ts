import { Dexie, type Table } from 'dexie';
import type { Sealed, StoredKeys } from './sealed-box';

/**
 * The ONE IndexedDB database of the portal: the copies a patient chose to keep for reading
 * offline (issue 16), because the service worker never caches /api. Every read goes through an
 * `ownerKey` (`u:<userId>` for a patient, `g:<screeningId>` for a guest), so one user never sees
 * another user's copies. What would tell anything about her (her name, the result, a document's or
 * an image's bytes, her lists) is stored sealed (./sealed-box.ts) and opens only with her PIN; in
 * clear are only what finds and lists a copy: ids, kinds, sizes and dates.
 */
export type OwnerKey = string;

/**
 * An owner who keeps copies on this device: her keys (the private one wrapped under her PIN).
 * Having one IS her choice to keep copies: without it nothing of hers is kept.
 */
export type OwnerKeys = StoredKeys & {
  ownerKey: OwnerKey;
  /** Wrong PINs in a row; at the limit her copies are deleted. */
  failedAttempts: number;
  createdAt: string;
};

export type ScreeningCopy = {
  ownerKey: OwnerKey;
  screeningId: number;
  /** In clear so the "Saved on this device" list can name the screening without the PIN. */
  examinedAt: string;
  /** The answer of GET /api/screening/result as it was shown, sealed. */
  result: Sealed;
  savedAt: string;
};

/** The facilities list has no document id of its own; it is kept under one made from its screening. */
export type KeptDocumentType = 'description' | 'referral' | 'facilitiesList';

export type DocumentCopy = {
  ownerKey: OwnerKey;
  documentId: string;
  screeningId: number;
  type: KeptDocumentType;
  language: 'pl' | 'en' | 'de' | null;
  sizeBytes: number;
  /** The PDF's bytes, sealed. */
  pdf: Sealed;
  savedAt: string;
};

/** The lists of the screenings page kept for offline reading, one of each kind per owner. */
export type KeptListKind = 'screenings' | 'referrals';

export type ListCopy = {
  ownerKey: OwnerKey;
  kind: KeptListKind;
  /** The unfiltered answer of GET /api/screenings or /api/screenings/referrals as it was shown, sealed. */
  list: Sealed;
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
  /** The set as GET /api/images answered it (an ImageSet of kind 'screening'), sealed. */
  set: Sealed;
  /** The bytes of all its images, for the device storage limit she sees. */
  sizeBytes: number;
  savedAt: string;
};

/** One kept DICOM file of a kept image set (its header names her: sealed). */
export type ImageCopy = {
  ownerKey: OwnerKey;
  imageId: string;
  screeningId: number;
  bytes: Sealed;
  savedAt: string;
};

type PortalDb = Dexie & {
  ownerKeys: Table<OwnerKeys, OwnerKey>;
  screenings: Table<ScreeningCopy, [OwnerKey, number]>;
  documents: Table<DocumentCopy, [OwnerKey, string]>;
  lists: Table<ListCopy, [OwnerKey, KeptListKind]>;
  imageSets: Table<ImageSetCopy, [OwnerKey, number]>;
  images: Table<ImageCopy, [OwnerKey, string]>;
};

const COPY_STORES = ['screenings', 'documents', 'lists', 'imageSets', 'images'] as const;

/** The version that seals the copies; a device still at an earlier one holds copies in clear. */
const SEALED_VERSION = 4;

let opened: PortalDb | null = null;

function deviceDb(): PortalDb {
  if (opened) return opened;
  const db = new Dexie('portal') as PortalDb;
  db.version(1).stores({
    screenings: '[ownerKey+screeningId], ownerKey',
    documents: '[ownerKey+documentId], ownerKey, [ownerKey+screeningId]',
  });
  // Versions are only ever added: a device that holds an earlier one upgrades in place.
  db.version(2).stores({ lists: '[ownerKey+kind], ownerKey' });
  db.version(3).stores({
    imageSets: '[ownerKey+screeningId], ownerKey',
    images: '[ownerKey+imageId], ownerKey, [ownerKey+screeningId]',
  });
  db.version(SEALED_VERSION)
    .stores({ ownerKeys: 'ownerKey' })
    .upgrade(async (transaction) => {
      // Earlier versions kept every document opened, without asking and in clear (issue 16):
      // none of those copies was her choice, so none stays.
      for (const store of COPY_STORES) await transaction.table(store).clear();
    });
  opened = db;
  return db;
}

/** Opens the database, which upgrades it (and so deletes the clear copies of earlier versions). */
export async function openDeviceDb(): Promise<void> {
  await deviceDb().open();
}

export function getOwnerKeys(ownerKey: OwnerKey): Promise<OwnerKeys | undefined> {
  return deviceDb().ownerKeys.get(ownerKey);
}

export async function putOwnerKeys(keys: OwnerKeys): Promise<void> {
  await deviceDb().ownerKeys.put(keys);
}

export async function setFailedAttempts(ownerKey: OwnerKey, failedAttempts: number): Promise<void> {
  await deviceDb().ownerKeys.update(ownerKey, { failedAttempts });
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

/** Removes every copy of this owner, the kept lists and images with them; her keys and other owners' copies stay. */
export async function deleteOwnerCopies(ownerKey: OwnerKey): Promise<void> {
  const db = deviceDb();
  await db.transaction('rw', [db.screenings, db.documents, db.lists, db.imageSets, db.images], async () => {
    for (const store of COPY_STORES) await db.table(store).where('ownerKey').equals(ownerKey).delete();
  });
}

/** Removes everything of this owner: her copies and her keys, together (she no longer keeps copies). */
export async function deleteOwner(ownerKey: OwnerKey): Promise<void> {
  const db = deviceDb();
  await db.transaction('rw', [db.ownerKeys, db.screenings, db.documents, db.lists, db.imageSets, db.images], async () => {
    for (const store of COPY_STORES) await db.table(store).where('ownerKey').equals(ownerKey).delete();
    await db.ownerKeys.delete(ownerKey);
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
