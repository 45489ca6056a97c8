import type { Config } from '../config';
import type { Db } from '../db';
import { formatDate } from '../lib/dates';
import type { FileStorage } from '../lib/storage';
import type { StoredImage } from './dicom-file-set';
import { createDiscImage } from './disc';
import { isoInstruction, screeningExaminedAt, screeningImages, type ScreeningImage } from './repo';

export type BuiltImage = { storageKey: string; sizeBytes: number };

/**
 * Writes the disc image of one screening into the store, streamed (FileStorage.writeStream: the
 * file is complete or not there at all). The size is checked against the layout, so a short image
 * is never declared done.
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
  const storageKey = storage.newKey('iso', '.iso', prefix);
  await storage.writeStream(storageKey, disc.stream());
  // An upload stored during the build belongs on the disc: fail this attempt, so the retry has it.
  if (!sameImages(images, await screeningImages(db, screeningId))) {
    await storage.remove(storageKey);
    throw new Error(`The images of screening ${screeningId} changed during the build`);
  }
  return { storageKey, sizeBytes: disc.size };
}

/** A stored DICOM file as the disc reads it: its header by ranges, its bytes as a stream. */
export function storedImage(storage: Pick<FileStorage, 'readBytes' | 'openRead'>, key: string, size: number): StoredImage {
  return { size, readBytes: (start, length) => storage.readBytes(key, start, length), open: () => storage.openRead(key) };
}

function sameImages(built: ScreeningImage[], now: ScreeningImage[]): boolean {
  const keys = new Set(built.map((image) => image.storageKey));
  return now.length === built.length && now.every((image) => keys.has(image.storageKey));
}
