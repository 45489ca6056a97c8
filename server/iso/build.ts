import type { Config } from '../config';
import type { Db } from '../db';
import { formatDate } from '../lib/dates';
import { mapInParallel } from '../lib/parallel';
import type { FileStorage } from '../lib/storage';
import type { StoredImage } from './dicom-file-set';
import { createDiscImage } from './disc';
import { encodeVirtualImage, VIRTUAL_DISC_EXTENSION } from './virtual-image';
import { isoInstruction, screeningExaminedAt, screeningImages, type ScreeningImage } from './repo';

export type BuiltImage = { storageKey: string; sizeBytes: number };

/** Stored files checked at once (a stat each on the folder, a HEAD each on a bucket). */
const PARALLEL_CHECKS = 16;

/**
 * Lays out the disc image of one screening and stores it as a virtual image (virtual-image.ts):
 * its layout, DICOMDIR and small files, naming the stored images it holds. Every image is checked
 * to be in the store at its recorded size first, so a disc that cannot be read whole is never
 * declared done.
 */
export async function buildScreeningDisc(
  db: Db,
  storage: FileStorage,
  config: Config,
  screeningId: number,
  now: Date,
): Promise<BuiltImage> {
  const examinedAt = await screeningExaminedAt(db, screeningId);
  if (!examinedAt) throw new Error(`Screening ${screeningId} is gone`);
  const images = await screeningImages(db, screeningId);
  if (images.length === 0) throw new Error(`Screening ${screeningId} has no images`);
  await checkStoredSizes(storage, images);
  const disc = await createDiscImage({
    images: images.map((image) => storedImage(storage, image.storageKey, image.sizeBytes)),
    // The instruction on the disc is the Polish one: the disc outlives the session's language.
    instruction: (await isoInstruction(db, 'pl')) ?? null,
    publisher: config.provider.legalName,
    examinedOn: formatDate(examinedAt, 'en'),
    createdAt: now,
  });
  // One build per screening runs at a time (the queue's singleton key), so any unfinished file of
  // this screening is the remains of a process that died mid-build.
  const prefix = `screening-${screeningId}-`;
  await storage.removeParts('iso', prefix);
  const storageKey = storage.newKey('iso', VIRTUAL_DISC_EXTENSION, prefix);
  await storage.writeFile(storageKey, encodeVirtualImage(disc));
  // An upload stored during the build belongs on the disc: fail this attempt, so the retry has it.
  if (!sameImages(images, await screeningImages(db, screeningId))) {
    await storage.remove(storageKey);
    throw new Error(`The images of screening ${screeningId} changed during the build`);
  }
  return { storageKey, sizeBytes: disc.size };
}

async function checkStoredSizes(storage: FileStorage, images: ScreeningImage[]): Promise<void> {
  const sizes = await mapInParallel(images, PARALLEL_CHECKS, (image) => storage.sizeOf(image.storageKey));
  images.forEach((image, index) => {
    if (sizes[index] !== image.sizeBytes) throw new Error(`Stored image ${image.storageKey} is not as recorded`);
  });
}

/** A stored DICOM file as the disc reads it: its header by ranges. */
export function storedImage(storage: Pick<FileStorage, 'readBytes'>, key: string, size: number): StoredImage {
  return { key, size, readBytes: (start, length) => storage.readBytes(key, start, length) };
}

function sameImages(built: ScreeningImage[], now: ScreeningImage[]): boolean {
  const keys = new Set(built.map((image) => image.storageKey));
  return now.length === built.length && now.every((image) => keys.has(image.storageKey));
}
