import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImageRef } from '@common/types/images';
import {
  fitsInLimit,
  imageStorageLimit,
  imageStorageUsage,
  isImageSetKept,
  keepImageSet,
  keptImageBytes,
  keptImageSets,
  NoRoomError,
  NotKeepingCopiesError,
  onKeptImagesChange,
  removeAllKeptImages,
  removeKeptImageSet,
  ViewerCodeNotKeptError,
  type ScreeningImageSet,
} from './kept-images';
import { dropViewerCode } from '../../lib/viewer-code';
import { startKeeping, unlockKeptCopies } from '../../documents/offline-copies';
import { isCopiesLocked } from '../../documents/copies-lock';

// The service worker's side (sw/sw.ts) is not in Node: what matters here is when it is asked.
vi.mock('../../lib/viewer-code', () => ({ keepViewerCode: vi.fn(async () => true), dropViewerCode: vi.fn(async () => true) }));

const MB = 1024 * 1024;

const ref = (id: string, sizeBytes: number): ImageRef => ({
  id,
  laterality: 'R',
  viewPosition: 'CC',
  studyDate: '2025-03-14',
  modality: 'MG',
  transferSyntaxUid: '1.2.840.10008.1.2.1',
  rows: 10,
  columns: 10,
  sizeBytes,
});

const set = (screeningId: number, examinedAt: string, images: ImageRef[]): ScreeningImageSet => ({
  kind: 'screening',
  screeningId,
  examinedAt,
  images,
});

const bytesOf = async (image: ImageRef) => new Blob([`DICM ${image.id}`]);

// The patients of these tests chose to keep copies on this device, and typed their PIN.
beforeAll(async () => {
  for (const owner of ['u:7', 'u:8', 'u:9', 'u:10', 'u:11', 'u:12']) {
    await startKeeping(owner, '482915');
    await unlockKeptCopies(owner, '482915');
  }
});

describe('imageStorageLimit', () => {
  it('takes a third of the browser quota, at most 2 GB, and 512 MB when the browser does not say', () => {
    expect(imageStorageLimit(900 * MB)).toBe(300 * MB);
    expect(imageStorageLimit(100_000 * MB)).toBe(2048 * MB);
    expect(imageStorageLimit(undefined)).toBe(512 * MB);
  });

  it('counts a set kept again once', () => {
    expect(fitsInLimit({ usedBytes: 400, limitBytes: 500 }, 200, 0)).toBe(false);
    expect(fitsInLimit({ usedBytes: 400, limitBytes: 500 }, 200, 200)).toBe(true);
  });
});

describe('keepImageSet', () => {
  it('keeps the bytes of every image, lists the set, and clears them on request', async () => {
    const progress: number[] = [];
    await keepImageSet('u:7', set(1, '2024-03-01T09:00:00Z', [ref('a', 10), ref('b', 20)]), (done) => progress.push(done), bytesOf);
    await keepImageSet('u:7', set(2, '2025-03-01T09:00:00Z', [ref('c', 5)]), () => undefined, bytesOf);
    expect(progress).toEqual([0, 1, 2]);
    expect(await isImageSetKept('u:7', 1)).toBe(true);
    expect(await (await keptImageBytes('u:7', 'b'))?.text()).toBe('DICM b');
    expect((await keptImageSets('u:7')).map((kept) => kept.screeningId)).toEqual([2, 1]);
    expect((await imageStorageUsage('u:7')).usedBytes).toBe(35);

    await removeAllKeptImages('u:7');
    expect(await keptImageSets('u:7')).toEqual([]);
    expect(await keptImageBytes('u:7', 'a')).toBeNull();
  });

  it('keeps images only for a patient who chose to keep copies, sealed, opened only once her PIN was typed', async () => {
    await expect(keepImageSet('u:99', set(9, '2025-01-01T09:00:00Z', [ref('q', 1)]), () => undefined, bytesOf)).rejects.toBeInstanceOf(
      NotKeepingCopiesError,
    );
    expect(await isImageSetKept('u:99', 9)).toBe(false);

    await startKeeping('u:98', '482915');
    await keepImageSet('u:98', set(9, '2025-01-01T09:00:00Z', [ref('q', 1)]), () => undefined, bytesOf);
    const db = new Dexie('portal');
    await db.open();
    const stored = await db.table('images').get(['u:98', 'q']);
    db.close();
    expect(new TextDecoder().decode(stored.bytes.data)).not.toContain('DICM');
    expect(await isImageSetKept('u:98', 9)).toBe(true);
    await expect(keptImageSets('u:98')).rejects.toSatisfy(isCopiesLocked);
    await expect(keptImageBytes('u:98', 'q')).rejects.toSatisfy(isCopiesLocked);
    await unlockKeptCopies('u:98', '482915');
    expect(await (await keptImageBytes('u:98', 'q'))?.text()).toBe('DICM q');
    await removeAllKeptImages('u:98');
  });

  it('refuses a set over the limit before storing anything', async () => {
    const huge = set(3, '2025-01-01T09:00:00Z', [ref('big', 10_000 * MB)]);
    await expect(keepImageSet('u:8', huge, () => undefined, bytesOf)).rejects.toBeInstanceOf(NoRoomError);
    expect(await keptImageBytes('u:8', 'big')).toBeNull();
  });

  it('leaves nothing behind when keeping breaks off', async () => {
    let calls = 0;
    const failing = async (image: ImageRef) => {
      if (++calls === 2) throw new Error('network gone');
      return bytesOf(image);
    };
    await expect(keepImageSet('u:9', set(4, '2025-01-01T09:00:00Z', [ref('x', 1), ref('y', 1)]), () => undefined, failing)).rejects.toThrow(
      'network gone',
    );
    expect(await isImageSetKept('u:9', 4)).toBe(false);
    expect(await keptImageBytes('u:9', 'x')).toBeNull();
  });

  it('keeps nothing, and fetches no image, when the viewer code they need offline cannot be kept', async () => {
    const fetched: string[] = [];
    const fetchImage = async (image: ImageRef) => {
      fetched.push(image.id);
      return bytesOf(image);
    };
    const keeping = keepImageSet(
      'u:12',
      set(6, '2025-01-01T09:00:00Z', [ref('p', 1)]),
      () => undefined,
      fetchImage,
      async () => 'failed',
    );
    await expect(keeping).rejects.toBeInstanceOf(ViewerCodeNotKeptError);
    expect(fetched).toEqual([]);
    expect(await isImageSetKept('u:12', 6)).toBe(false);
  });
});

describe('removing kept images', () => {
  it('tells the page, and lets the viewer code go only when the device keeps no images for anybody', async () => {
    const changes = vi.fn();
    const stopListening = onKeptImagesChange(changes);
    await keepImageSet('u:10', set(7, '2025-01-01T09:00:00Z', [ref('m', 1)]), () => undefined, bytesOf);
    await keepImageSet('u:11', set(8, '2025-02-01T09:00:00Z', [ref('n', 1)]), () => undefined, bytesOf);
    expect(changes).toHaveBeenCalledTimes(2);
    vi.mocked(dropViewerCode).mockClear();

    await removeAllKeptImages('u:10');
    expect(changes).toHaveBeenCalledTimes(3);
    // Another patient on this device still keeps images: they need the code.
    expect(dropViewerCode).not.toHaveBeenCalled();

    await removeKeptImageSet('u:11', 8);
    expect(changes).toHaveBeenCalledTimes(4);
    expect(dropViewerCode).toHaveBeenCalledTimes(1);
    stopListening();
  });
});
