import type { ImageRef, ImageSet } from '@common/types/images';
import {
  countImageSetCopies,
  deleteImageSetCopy,
  deleteOwnerImages,
  getImageCopy,
  getImageSetCopy,
  listImageSetCopies,
  putImageCopy,
  putImageSetCopy,
  type OwnerKey,
} from '../../lib/device-db';
import { createChangeSignal } from '../../lib/change-signal';
import { dropViewerCode, keepViewerCode } from '../../lib/viewer-code';
import { keepsCopies, openFor, openJsonFor, sealFor, sealJsonFor } from '../../documents/device-keys';

export type ScreeningImageSet = Extract<ImageSet, { kind: 'screening' }>;

const MB = 1024 * 1024;
/** The most kept images may take, and what a browser that gives no estimate is granted. */
const MAX_LIMIT = 2048 * MB;
const UNKNOWN_QUOTA_LIMIT = 512 * MB;

/**
 * The device storage limit for kept images: a third of what the browser grants the portal (its
 * quota also holds the app, the kept PDFs and other sites' share of the disk), at most 2 GB.
 */
export function imageStorageLimit(quotaBytes: number | undefined): number {
  if (!quotaBytes || quotaBytes <= 0) return UNKNOWN_QUOTA_LIMIT;
  return Math.min(MAX_LIMIT, Math.floor(quotaBytes / 3));
}

export type ImageStorageUsage = { usedBytes: number; limitBytes: number };

export async function imageStorageUsage(ownerKey: OwnerKey): Promise<ImageStorageUsage> {
  const [sets, estimate] = await Promise.all([
    listImageSetCopies(ownerKey),
    // Not every browser (nor a test's Node) has the Storage API: the limit then falls back.
    globalThis.navigator?.storage?.estimate?.().catch(() => undefined) ?? Promise.resolve(undefined),
  ]);
  return { usedBytes: sets.reduce((sum, copy) => sum + copy.sizeBytes, 0), limitBytes: imageStorageLimit(estimate?.quota) };
}

/** Whether a set of `sizeBytes` fits beside what is kept already (a set kept again replaces itself). */
export function fitsInLimit(usage: ImageStorageUsage, sizeBytes: number, alreadyKeptBytes: number): boolean {
  return usage.usedBytes - alreadyKeptBytes + sizeBytes <= usage.limitBytes;
}

export class NoRoomError extends Error {
  constructor(
    readonly sizeBytes: number,
    readonly leftBytes: number,
  ) {
    super('images do not fit in the device storage limit');
  }
}

const setSize = (set: ScreeningImageSet) => set.images.reduce((sum, image) => sum + image.sizeBytes, 0);

/** She has not chosen to keep copies on this device (her PIN): images are not kept either. */
export class NotKeepingCopiesError extends Error {
  constructor() {
    super('the owner keeps no copies on this device');
  }
}

export class ViewerCodeNotKeptError extends Error {
  constructor() {
    super('the service worker could not keep the viewer code');
  }
}

/** The viewer's code, for viewing offline: 'kept', 'failed', or 'noWorker' (nothing to ask). */
export type ViewerCodeKeeper = () => Promise<'kept' | 'failed' | 'noWorker'>;

const keepViewerCodeOnDevice: ViewerCodeKeeper = async () => {
  if (!globalThis.navigator?.serviceWorker?.controller) return 'noWorker';
  return (await keepViewerCode()) ? 'kept' : 'failed';
};

const imageSetContext = (screeningId: number) => `image set ${screeningId}`;
const imageContext = (imageId: string) => `image ${imageId}`;

/**
 * Keeps a screening's images on the device, when she asks for it and keeps copies here at all
 * (each image sealed for her, like her documents: its DICOM header names her), with the viewer's
 * code they need offline (fetched first: it is the smaller part, and without it the images would
 * not open). Each file is fetched, sealed and stored in turn (never all in memory); the set is
 * listed only once every image is stored, and a keeping that breaks off leaves nothing behind.
 */
export async function keepImageSet(
  ownerKey: OwnerKey,
  set: ScreeningImageSet,
  onProgress: (done: number, total: number) => void,
  fetchImage: (image: ImageRef) => Promise<Blob> = fetchImageBytes,
  keepCode: ViewerCodeKeeper = keepViewerCodeOnDevice,
): Promise<void> {
  if (!(await keepsCopies(ownerKey))) throw new NotKeepingCopiesError();
  const usage = await imageStorageUsage(ownerKey);
  const kept = await getImageSetCopy(ownerKey, set.screeningId);
  const sizeBytes = setSize(set);
  if (!fitsInLimit(usage, sizeBytes, kept?.sizeBytes ?? 0)) {
    throw new NoRoomError(sizeBytes, Math.max(0, usage.limitBytes - usage.usedBytes + (kept?.sizeBytes ?? 0)));
  }
  onProgress(0, set.images.length);
  if ((await keepCode()) === 'failed') throw new ViewerCodeNotKeptError();
  const savedAt = new Date().toISOString();
  try {
    for (const [index, image] of set.images.entries()) {
      const bytes = await sealed(sealFor(ownerKey, await (await fetchImage(image)).arrayBuffer(), imageContext(image.id)));
      await putImageCopy({ ownerKey, imageId: image.id, screeningId: set.screeningId, bytes, savedAt });
      onProgress(index + 1, set.images.length);
    }
    const sealedSet = await sealed(sealJsonFor(ownerKey, set, imageSetContext(set.screeningId)));
    await putImageSetCopy({ ownerKey, screeningId: set.screeningId, set: sealedSet, sizeBytes, savedAt });
  } catch (error) {
    await deleteImageSetCopy(ownerKey, set.screeningId).catch(() => undefined);
    throw error;
  }
  announceChange();
}

/** A seal that found no keys: she stopped keeping copies meanwhile (in another tab). */
async function sealed<T>(sealing: Promise<T | null>): Promise<T> {
  const done = await sealing;
  if (!done) throw new NotKeepingCopiesError();
  return done;
}

async function fetchImageBytes(image: ImageRef): Promise<Blob> {
  const response = await fetch(`/api/images/${encodeURIComponent(image.id)}`, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`image answered ${response.status}`);
  return response.blob();
}

export function isImageSetKept(ownerKey: OwnerKey, screeningId: number): Promise<boolean> {
  return getImageSetCopy(ownerKey, screeningId).then((copy) => copy !== undefined);
}

/**
 * The kept sets of this owner, as GET /api/images would answer them (newest first);
 * CopiesLockedError until her PIN opened her copies.
 */
export async function keptImageSets(ownerKey: OwnerKey): Promise<ScreeningImageSet[]> {
  const copies = await listImageSetCopies(ownerKey);
  const sets = await Promise.all(
    copies.map((copy) => openJsonFor<ScreeningImageSet>(ownerKey, copy.set, imageSetContext(copy.screeningId))),
  );
  return sets.sort((a, b) => b.examinedAt.localeCompare(a.examinedAt));
}

/** A kept image's DICOM file; CopiesLockedError until her PIN opened her copies. */
export async function keptImageBytes(ownerKey: OwnerKey, imageId: string): Promise<Blob | null> {
  const copy = await getImageCopy(ownerKey, imageId);
  return copy ? new Blob([await openFor(ownerKey, copy.bytes, imageContext(imageId))]) : null;
}

/** Tells the viewer page that the kept images changed (offline it shows only what is kept). */
const changes = createChangeSignal();
export const onKeptImagesChange = changes.subscribe;
const announceChange = changes.announce;

/** After a removal: once no images are kept on the device, for anybody, the viewer's code goes too. */
async function afterRemoval(): Promise<void> {
  announceChange();
  if ((await countImageSetCopies()) === 0) await dropViewerCode();
}

export async function removeKeptImageSet(ownerKey: OwnerKey, screeningId: number): Promise<void> {
  await deleteImageSetCopy(ownerKey, screeningId);
  await afterRemoval();
}

/** "Remove all kept images": this owner's; another patient's kept on the same device stay. */
export async function removeAllKeptImages(ownerKey: OwnerKey): Promise<void> {
  await deleteOwnerImages(ownerKey);
  await afterRemoval();
}
