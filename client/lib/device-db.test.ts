import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  deleteImageSetCopy,
  deleteOwner,
  deleteOwnerCopies,
  deleteOwnerImages,
  deleteScreeningCopy,
  getDocumentCopy,
  getImageCopy,
  getImageSetCopy,
  getListCopy,
  getOwnerKeys,
  getScreeningCopy,
  listDocumentCopies,
  listImageSetCopies,
  listListCopies,
  listScreeningCopies,
  putDocumentCopy,
  putImageCopy,
  putImageSetCopy,
  putListCopy,
  putOwnerKeys,
  putScreeningCopy,
} from './device-db';
import type { Sealed } from './sealed-box';

const SAVED_AT = '2026-11-20T10:00:00.000Z';

/** The store does not look inside a sealed copy (client/lib/sealed-box.ts does): any bytes stand in. */
const sealedOf = (text: string): Sealed => ({
  ephemeralKey: new ArrayBuffer(65),
  iv: new Uint8Array(12),
  data: new TextEncoder().encode(text).buffer,
});
const textOf = (sealed: Sealed | undefined) => (sealed ? new TextDecoder().decode(sealed.data) : undefined);

async function saveCopy(ownerKey: string, screeningId: number, documentId: string) {
  await putScreeningCopy({
    ownerKey,
    screeningId,
    examinedAt: '2026-10-06T09:00:00Z',
    result: sealedOf(`result ${screeningId}`),
    savedAt: SAVED_AT,
  });
  await putDocumentCopy({
    ownerKey,
    documentId,
    screeningId,
    type: 'description',
    language: 'en',
    sizeBytes: 13,
    pdf: sealedOf('%PDF-1.4 test'),
    savedAt: SAVED_AT,
  });
}

async function keepSet(ownerKey: string, screeningId: number, imageIds: string[]) {
  for (const imageId of imageIds) {
    await putImageCopy({ ownerKey, imageId, screeningId, bytes: sealedOf(`DICM ${imageId}`), savedAt: SAVED_AT });
  }
  await putImageSetCopy({ ownerKey, screeningId, set: sealedOf(`set ${screeningId}`), sizeBytes: 100, savedAt: SAVED_AT });
}

async function keepKeys(ownerKey: string) {
  await putOwnerKeys({
    ownerKey,
    publicKey: new ArrayBuffer(65),
    privateKey: { salt: new Uint8Array(16), iv: new Uint8Array(12), iterations: 1, data: new ArrayBuffer(32) },
    failedAttempts: 0,
    createdAt: SAVED_AT,
  });
}

describe('device-db', () => {
  beforeEach(async () => {
    for (const owner of ['u:1', 'u:2', 'g:7']) await deleteOwner(owner);
  });

  it('reads back a saved screening and its PDF', async () => {
    await saveCopy('u:1', 10, 'doc-a');
    expect(textOf((await getScreeningCopy('u:1', 10))?.result)).toBe('result 10');
    const document = await getDocumentCopy('u:1', 'doc-a');
    expect(document?.screeningId).toBe(10);
    expect(textOf(document?.pdf)).toBe('%PDF-1.4 test');
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

  it("deletes all of one owner's copies only, keeping her keys; deleting the owner takes the keys too", async () => {
    await keepKeys('u:1');
    await saveCopy('u:1', 10, 'doc-a');
    await saveCopy('g:7', 7, 'doc-c');
    await deleteOwnerCopies('u:1');
    expect(await listScreeningCopies('u:1')).toEqual([]);
    expect(await listDocumentCopies('u:1')).toEqual([]);
    expect(await getOwnerKeys('u:1')).toBeDefined();
    expect(await listScreeningCopies('g:7')).toHaveLength(1);

    await saveCopy('u:1', 10, 'doc-a');
    await deleteOwner('u:1');
    expect(await getOwnerKeys('u:1')).toBeUndefined();
    expect(await listScreeningCopies('u:1')).toEqual([]);
    expect(await listScreeningCopies('g:7')).toHaveLength(1);
  });

  it("keeps one list of each kind per owner, and deletes them with the owner's other copies", async () => {
    await putListCopy({ ownerKey: 'u:1', kind: 'screenings', list: sealedOf('old'), savedAt: SAVED_AT });
    await putListCopy({ ownerKey: 'u:1', kind: 'screenings', list: sealedOf('new'), savedAt: SAVED_AT });
    await putListCopy({ ownerKey: 'u:1', kind: 'referrals', list: sealedOf('referrals'), savedAt: SAVED_AT });
    await putListCopy({ ownerKey: 'u:2', kind: 'screenings', list: sealedOf('of u:2'), savedAt: SAVED_AT });
    expect(textOf((await getListCopy('u:1', 'screenings'))?.list)).toBe('new');
    expect(await listListCopies('u:1')).toHaveLength(2);
    expect(await getListCopy('g:7', 'screenings')).toBeUndefined();

    await deleteOwnerCopies('u:1');
    expect(await listListCopies('u:1')).toEqual([]);
    expect(textOf((await getListCopy('u:2', 'screenings'))?.list)).toBe('of u:2');
  });

  it('deletes one image set with its images, or all her images, leaving her other copies and other owners', async () => {
    await saveCopy('u:1', 10, 'doc-a');
    await keepSet('u:1', 10, ['a', 'b']);
    await keepSet('u:1', 11, ['c']);
    await keepSet('u:2', 10, ['a']);
    expect(textOf((await getImageCopy('u:1', 'b'))?.bytes)).toBe('DICM b');
    expect((await listImageSetCopies('u:1')).map((copy) => copy.screeningId)).toEqual([10, 11]);

    await deleteImageSetCopy('u:1', 10);
    expect(await getImageSetCopy('u:1', 10)).toBeUndefined();
    expect(await getImageCopy('u:1', 'a')).toBeUndefined();
    expect(await getImageCopy('u:1', 'c')).toBeDefined();
    expect(await getImageCopy('u:2', 'a')).toBeDefined();

    await deleteOwnerImages('u:1');
    expect(await listImageSetCopies('u:1')).toEqual([]);
    expect(await getScreeningCopy('u:1', 10)).toBeDefined();
    await deleteOwnerCopies('u:2');
    expect(await getImageCopy('u:2', 'a')).toBeUndefined();
  });
});
