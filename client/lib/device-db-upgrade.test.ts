import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import {
  deleteOwnerCopies,
  getDocumentCopy,
  getListCopy,
  getScreeningCopy,
  listDocumentCopies,
  listScreeningCopies,
  putListCopy,
} from './device-db';

const SAVED_AT = '2026-11-20T10:00:00.000Z';

describe('device-db upgrade', () => {
  it('keeps the copies of a device that holds version 1 and adds the lists store', async () => {
    // The database as the portal created it before the lists were kept (version 1).
    const before = new Dexie('portal');
    before.version(1).stores({
      screenings: '[ownerKey+screeningId], ownerKey',
      documents: '[ownerKey+documentId], ownerKey, [ownerKey+screeningId]',
    });
    await before.table('screenings').put({ ownerKey: 'u:1', screeningId: 10, result: { screening: { id: 10 } }, savedAt: SAVED_AT });
    await before.table('documents').put({
      ownerKey: 'u:1',
      documentId: 'doc-a',
      screeningId: 10,
      name: 'opis.pdf',
      type: 'description',
      language: 'pl',
      pdf: new Blob(['%PDF-1.4 test']),
      savedAt: SAVED_AT,
    });
    before.close();

    expect((await getScreeningCopy('u:1', 10))?.result).toEqual({ screening: { id: 10 } });
    expect((await getDocumentCopy('u:1', 'doc-a'))?.screeningId).toBe(10);
    // The indexes of version 1 still answer: the result page lists and deletes by them.
    expect(await listScreeningCopies('u:1')).toHaveLength(1);
    expect(await listDocumentCopies('u:1')).toHaveLength(1);
    expect(await (await getDocumentCopy('u:1', 'doc-a'))?.pdf.text()).toBe('%PDF-1.4 test');
    await putListCopy({ ownerKey: 'u:1', kind: 'referrals', list: { items: [] }, savedAt: SAVED_AT });
    expect((await getListCopy('u:1', 'referrals'))?.savedAt).toBe(SAVED_AT);

    const after = new Dexie('portal');
    await after.open();
    // The latest version (3 added the kept images, device-db-images-upgrade.test.ts).
    expect(after.verno).toBe(3);
    expect(after.tables.map((table) => table.name).sort()).toEqual(['documents', 'imageSets', 'images', 'lists', 'screenings']);
    after.close();

    // Deleting the owner's copies now reaches the new store as well as the old ones.
    await deleteOwnerCopies('u:1');
    expect(await getScreeningCopy('u:1', 10)).toBeUndefined();
    expect(await getDocumentCopy('u:1', 'doc-a')).toBeUndefined();
    expect(await getListCopy('u:1', 'referrals')).toBeUndefined();
  });
});
