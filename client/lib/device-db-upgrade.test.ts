import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { getOwnerKeys, listDocumentCopies, listImageSetCopies, listListCopies, listScreeningCopies, openDeviceDb } from './device-db';
import { deviceDbOfVersion3 } from './device-db-test-support';

const SAVED_AT = '2026-11-20T10:00:00.000Z';

/** The database as versions 1 to 3 left it: copies kept without asking, in clear. */
async function deviceOfVersion3(): Promise<void> {
  const before = deviceDbOfVersion3();
  const result = { screening: { id: 10, firstName: 'Maria', lastName: 'Kowalska' } };
  await before.table('screenings').put({ ownerKey: 'u:1', screeningId: 10, result, savedAt: SAVED_AT });
  await before.table('documents').put({
    ownerKey: 'u:1',
    documentId: 'doc-a',
    screeningId: 10,
    name: 'opis.pdf',
    type: 'description',
    language: 'pl',
    pdf: new Blob(['%PDF-1.4 Maria Kowalska']),
    savedAt: SAVED_AT,
  });
  await before.table('lists').put({ ownerKey: 'u:1', kind: 'screenings', list: { items: [result] }, savedAt: SAVED_AT });
  await before.table('imageSets').put({ ownerKey: 'u:1', screeningId: 10, set: { kind: 'screening' }, sizeBytes: 9, savedAt: SAVED_AT });
  await before.table('images').put({ ownerKey: 'u:1', imageId: 'a', screeningId: 10, bytes: new Blob(['DICM']), savedAt: SAVED_AT });
  before.close();
}

describe('device-db upgrade to sealed copies (version 4)', () => {
  it('deletes the clear copies earlier versions kept without asking, and adds the owners’ keys store', async () => {
    await deviceOfVersion3();
    await openDeviceDb();

    expect(await listScreeningCopies('u:1')).toEqual([]);
    expect(await listDocumentCopies('u:1')).toEqual([]);
    expect(await listListCopies('u:1')).toEqual([]);
    expect(await listImageSetCopies('u:1')).toEqual([]);
    expect(await getOwnerKeys('u:1')).toBeUndefined();

    const after = new Dexie('portal');
    await after.open();
    expect(after.verno).toBe(4);
    expect(after.tables.map((table) => table.name).sort()).toEqual([
      'documents',
      'imageSets',
      'images',
      'lists',
      'ownerKeys',
      'screenings',
    ]);
    // Nothing of the clear copies is left anywhere in the database.
    for (const table of after.tables) expect(await table.count(), table.name).toBe(0);
    after.close();
  });
});
