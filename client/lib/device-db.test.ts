import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
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
} from './device-db';

const SAVED_AT = '2026-11-20T10:00:00.000Z';

async function saveCopy(ownerKey: string, screeningId: number, documentId: string) {
  await putScreeningCopy({ ownerKey, screeningId, result: { screening: { id: screeningId } }, savedAt: SAVED_AT });
  await putDocumentCopy({
    ownerKey,
    documentId,
    screeningId,
    name: 'opis.pdf',
    type: 'description',
    language: 'en',
    pdf: new Blob(['%PDF-1.4 test'], { type: 'application/pdf' }),
    savedAt: SAVED_AT,
  });
}

describe('device-db', () => {
  beforeEach(async () => {
    await deleteOwnerCopies('u:1');
    await deleteOwnerCopies('u:2');
    await deleteOwnerCopies('g:7');
  });

  it('reads back a saved screening and its PDF', async () => {
    await saveCopy('u:1', 10, 'doc-a');
    expect((await getScreeningCopy('u:1', 10))?.result).toEqual({ screening: { id: 10 } });
    const document = await getDocumentCopy('u:1', 'doc-a');
    expect(document?.screeningId).toBe(10);
    expect(document?.pdf).toBeDefined();
  });

  it("never shows one owner's copies to another", async () => {
    await saveCopy('u:1', 10, 'doc-a');
    expect(await getScreeningCopy('u:2', 10)).toBeUndefined();
    expect(await getDocumentCopy('g:7', 'doc-a')).toBeUndefined();
    expect(await listScreeningCopies('u:2')).toEqual([]);
    expect(await listDocumentCopies('u:2')).toEqual([]);
  });

  it('deletes one screening with its documents and leaves the others', async () => {
    await saveCopy('u:1', 10, 'doc-a');
    await saveCopy('u:1', 11, 'doc-b');
    await saveCopy('u:2', 10, 'doc-a');
    await deleteScreeningCopy('u:1', 10);
    expect(await getScreeningCopy('u:1', 10)).toBeUndefined();
    expect(await getDocumentCopy('u:1', 'doc-a')).toBeUndefined();
    expect((await listScreeningCopies('u:1')).map((copy) => copy.screeningId)).toEqual([11]);
    expect(await getDocumentCopy('u:2', 'doc-a')).toBeDefined();
  });

  it("deletes all of one owner's copies only", async () => {
    await saveCopy('u:1', 10, 'doc-a');
    await saveCopy('g:7', 7, 'doc-c');
    await deleteOwnerCopies('u:1');
    expect(await listScreeningCopies('u:1')).toEqual([]);
    expect(await listDocumentCopies('u:1')).toEqual([]);
    expect(await listScreeningCopies('g:7')).toHaveLength(1);
  });

  it("keeps one list of each kind per owner, and deletes them with the owner's other copies", async () => {
    await putListCopy({ ownerKey: 'u:1', kind: 'screenings', list: { items: [1] }, savedAt: SAVED_AT });
    await putListCopy({ ownerKey: 'u:1', kind: 'screenings', list: { items: [1, 2] }, savedAt: SAVED_AT });
    await putListCopy({ ownerKey: 'u:1', kind: 'referrals', list: { items: [] }, savedAt: SAVED_AT });
    await putListCopy({ ownerKey: 'u:2', kind: 'screenings', list: { items: [3] }, savedAt: SAVED_AT });
    expect((await getListCopy('u:1', 'screenings'))?.list).toEqual({ items: [1, 2] });
    expect(await listListCopies('u:1')).toHaveLength(2);
    expect(await getListCopy('g:7', 'screenings')).toBeUndefined();

    await deleteOwnerCopies('u:1');
    expect(await listListCopies('u:1')).toEqual([]);
    expect((await getListCopy('u:2', 'screenings'))?.list).toEqual({ items: [3] });
    await deleteOwnerCopies('u:2');
  });
});
