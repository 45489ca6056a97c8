import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import {
  deleteImageSetCopy,
  deleteOwnerCopies,
  deleteOwnerImages,
  getImageCopy,
  getImageSetCopy,
  getListCopy,
  getScreeningCopy,
  listImageSetCopies,
  putImageCopy,
  putImageSetCopy,
} from './device-db';

const SAVED_AT = '2026-11-26T10:00:00.000Z';

async function keepSet(ownerKey: string, screeningId: number, imageIds: string[]) {
  for (const imageId of imageIds) {
    await putImageCopy({ ownerKey, imageId, screeningId, bytes: new Blob([`DICM ${imageId}`]), savedAt: SAVED_AT });
  }
  await putImageSetCopy({ ownerKey, screeningId, set: { kind: 'screening', screeningId }, sizeBytes: 100, savedAt: SAVED_AT });
}

describe('device-db version 3 (kept images)', () => {
  it('upgrades a device that holds version 2 in place and adds the image stores', async () => {
    // The database as the portal created it before images were kept (versions 1 and 2).
    const before = new Dexie('portal');
    before.version(1).stores({
      screenings: '[ownerKey+screeningId], ownerKey',
      documents: '[ownerKey+documentId], ownerKey, [ownerKey+screeningId]',
    });
    before.version(2).stores({ lists: '[ownerKey+kind], ownerKey' });
    await before.table('screenings').put({ ownerKey: 'u:1', screeningId: 10, result: { screening: { id: 10 } }, savedAt: SAVED_AT });
    await before.table('lists').put({ ownerKey: 'u:1', kind: 'screenings', list: { items: [] }, savedAt: SAVED_AT });
    before.close();

    // The copies of version 2 are still there.
    expect((await getScreeningCopy('u:1', 10))?.savedAt).toBe(SAVED_AT);
    expect((await getListCopy('u:1', 'screenings'))?.list).toEqual({ items: [] });

    await keepSet('u:1', 10, ['a', 'b']);
    await keepSet('u:1', 11, ['c']);
    await keepSet('u:2', 10, ['a']);
    expect(await (await getImageCopy('u:1', 'b'))?.bytes.text()).toBe('DICM b');
    expect((await listImageSetCopies('u:1')).map((copy) => copy.screeningId)).toEqual([10, 11]);

    const after = new Dexie('portal');
    await after.open();
    expect(after.verno).toBe(3);
    after.close();

    // One set goes with its images only; another owner's same ids stay.
    await deleteImageSetCopy('u:1', 10);
    expect(await getImageSetCopy('u:1', 10)).toBeUndefined();
    expect(await getImageCopy('u:1', 'a')).toBeUndefined();
    expect(await getImageCopy('u:1', 'c')).toBeDefined();
    expect(await getImageCopy('u:2', 'a')).toBeDefined();

    // Clearing her images keeps her other copies; deleting the owner's copies reaches the images too.
    await deleteOwnerImages('u:1');
    expect(await listImageSetCopies('u:1')).toEqual([]);
    expect(await getScreeningCopy('u:1', 10)).toBeDefined();
    await deleteOwnerCopies('u:2');
    expect(await getImageCopy('u:2', 'a')).toBeUndefined();
  });
});
