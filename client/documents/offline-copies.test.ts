import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ScreeningResult } from '@common/types/result';
import type { ScreeningDocument } from '@common/types/screenings';
import { facilitiesListDocument } from './kept-documents';
import { isCopiesLocked, lockAllCopies } from './copies-lock';
import {
  deleteAllKept,
  deleteKeptScreening,
  hasKeptCopies,
  hasKeptScreening,
  keepDocument,
  keepList,
  keepsCopies,
  keptListTimes,
  listKept,
  onKeptChange,
  readKeptList,
  readKeptPdf,
  readKeptScreening,
  refreshKeptScreening,
  startKeeping,
  stopKeeping,
  unlockKeptCopies,
} from './offline-copies';

function result(id: number, examinedAt: string, firstName = 'Maria'): ScreeningResult {
  return {
    screening: {
      id,
      examinedAt,
      firstName,
      lastName: 'Kowalska',
      absorbedDoseMgy: 1.2,
      result: 2,
      descriptionsStatus: 'desc_all_completed',
      signedAt: null,
    },
    documents: [],
    hasFacilitiesList: false,
    iso: { status: 'no_request' },
    survey: { submitted: false },
  };
}

const PIN = '482915';
const description: ScreeningDocument = { id: 'doc-en', name: 'opis EN.pdf', type: 'description', language: 'en', sizeBytes: 2048 };
const pdf = () => new Blob([new Uint8Array(3000)], { type: 'application/pdf' });
const namedPdf = () => new Blob([`%PDF-1.7 Pacjentka: Maria Kowalska ${'x'.repeat(500)}`], { type: 'application/pdf' });

/** Every record the device database holds, read past the app's code (as devtools would). */
async function rawRecords(): Promise<unknown[]> {
  const db = new Dexie('portal');
  await db.open();
  const records = (await Promise.all(db.tables.map((table) => table.toArray()))).flat();
  db.close();
  return records;
}

/** Every string and byte of a record, as one text to search in. */
function dump(value: unknown): string {
  if (value instanceof ArrayBuffer) return new TextDecoder('latin1').decode(value);
  if (ArrayBuffer.isView(value)) return new TextDecoder('latin1').decode(value);
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return Object.values(value).map(dump).join('\n');
  return String(value);
}

async function keepingUnlocked(ownerKey: string): Promise<void> {
  await startKeeping(ownerKey, PIN);
  expect(await unlockKeptCopies(ownerKey, PIN)).toEqual({ kind: 'unlocked' });
}

describe('offline copies', () => {
  beforeEach(async () => {
    lockAllCopies();
    for (const owner of ['g:5', 'u:1', 'u:2']) await stopKeeping(owner);
  });

  it('keeps nothing while she has not chosen to keep copies', async () => {
    expect(await keepsCopies('u:1')).toBe(false);
    expect(await keepDocument('u:1', result(5, '2026-10-06T09:00:00Z'), description, pdf())).toBe(false);
    expect(await keepList('u:1', 'screenings', { items: [] })).toBe(false);
    expect(await hasKeptCopies('u:1')).toBe(false);
    expect(await rawRecords()).toEqual([]);
  });

  it('keeps an opened document sealed: nothing of her or the PDF is readable on the device without the PIN', async () => {
    await startKeeping('u:1', PIN);
    const shown = result(5, '2026-10-06T09:00:00Z');
    expect(await keepDocument('u:1', shown, description, namedPdf())).toBe(true);
    expect(await keepList('u:1', 'screenings', { items: [shown] })).toBe(true);

    const stored = (await rawRecords()).map(dump).join('\n');
    for (const secret of ['Maria', 'Kowalska', '%PDF', 'BI-RADS', 'desc_all_completed', 'opis EN']) expect(stored).not.toContain(secret);

    // Found and listed without the PIN (ids, sizes, dates), read only with it.
    expect(await hasKeptScreening('u:1', 5)).toBe(true);
    expect((await listKept('u:1'))[0]?.documents[0]?.sizeBytes).toBe((await namedPdf().arrayBuffer()).byteLength);
    await expect(readKeptScreening('u:1', 5)).rejects.toSatisfy(isCopiesLocked);
    await expect(readKeptPdf('u:1', 'doc-en')).rejects.toSatisfy(isCopiesLocked);
    await expect(readKeptList('u:1', 'screenings')).rejects.toSatisfy(isCopiesLocked);

    expect(await unlockKeptCopies('u:1', PIN)).toEqual({ kind: 'unlocked' });
    expect((await readKeptScreening('u:1', 5))?.result.screening.lastName).toBe('Kowalska');
    expect(await (await readKeptPdf('u:1', 'doc-en'))?.text()).toContain('Maria Kowalska');
    expect((await readKeptList<{ items: ScreeningResult[] }>('u:1', 'screenings'))?.list.items[0]?.screening.id).toBe(5);

    // Locked again (her session ended): the PIN again.
    lockAllCopies();
    await expect(readKeptScreening('u:1', 5)).rejects.toSatisfy(isCopiesLocked);
  });

  it('counts wrong PINs and deletes her copies and keys at the fifth; a right PIN starts the count again', async () => {
    await startKeeping('u:1', PIN);
    await startKeeping('u:2', '739104');
    await keepDocument('u:1', result(5, '2026-10-06T09:00:00Z'), description, pdf());
    await keepDocument('u:2', result(6, '2026-10-06T09:00:00Z'), description, pdf());

    expect(await unlockKeptCopies('u:1', '000001')).toEqual({ kind: 'wrongPin', attemptsLeft: 4 });
    expect(await unlockKeptCopies('u:1', PIN)).toEqual({ kind: 'unlocked' });
    lockAllCopies();
    for (const attemptsLeft of [4, 3, 2, 1]) expect(await unlockKeptCopies('u:1', '999999')).toEqual({ kind: 'wrongPin', attemptsLeft });
    // Another patient's PIN on the same device never opens hers.
    expect(await unlockKeptCopies('u:1', '739104')).toEqual({ kind: 'erased' });
    expect(await keepsCopies('u:1')).toBe(false);
    expect(await hasKeptCopies('u:1')).toBe(false);
    expect(await unlockKeptCopies('u:1', PIN)).toEqual({ kind: 'none' });
    // Another patient's copies on the same device stay.
    expect(await hasKeptCopies('u:2')).toBe(true);
  });

  it('keeps an opened document with the screening data shown with it', async () => {
    await keepingUnlocked('g:5');
    let changes = 0;
    const stop = onKeptChange(() => changes++);
    await keepDocument('g:5', result(5, '2026-10-06T09:00:00Z'), description, pdf());
    stop();
    expect(changes).toBe(1);
    expect((await readKeptScreening('g:5', 5))?.result.screening.firstName).toBe('Maria');
    // The guest's page names no screening: her one kept screening is shown.
    expect((await readKeptScreening('g:5', undefined))?.result.screening.id).toBe(5);
    expect(await readKeptPdf('g:5', 'doc-en')).not.toBeNull();
    expect(await hasKeptCopies('g:5')).toBe(true);
    expect(await readKeptScreening('u:1', 5)).toBeNull();
  });

  it('refreshes only a screening kept before', async () => {
    await keepingUnlocked('u:1');
    await refreshKeptScreening('u:1', result(7, '2026-10-06T09:00:00Z'));
    expect(await readKeptScreening('u:1', 7)).toBeNull();
    await keepDocument('u:1', result(7, '2026-10-06T09:00:00Z'), description, pdf());
    await refreshKeptScreening('u:1', result(7, '2026-10-06T09:00:00Z', 'Marta'));
    expect((await readKeptScreening('u:1', 7))?.result.screening.firstName).toBe('Marta');
  });

  it('lists the kept screenings newest first with their documents and sizes', async () => {
    await startKeeping('u:1', PIN);
    await keepDocument('u:1', result(7, '2025-10-06T09:00:00Z'), description, pdf());
    await keepDocument('u:1', result(8, '2026-10-06T09:00:00Z'), { ...description, id: 'doc-pl', language: 'pl' }, pdf());
    const kept = await listKept('u:1');
    expect(kept.map((copy) => copy.screeningId)).toEqual([8, 7]);
    expect(kept[0]?.documents).toEqual([{ documentId: 'doc-pl', type: 'description', language: 'pl', sizeBytes: 3000 }]);
  });

  it('keeps the facilities list, which has no document id, once per screening and deletes it with the screening', async () => {
    await keepingUnlocked('u:1');
    await keepDocument('u:1', result(7, '2025-10-06T09:00:00Z'), facilitiesListDocument(7), pdf());
    await keepDocument('u:1', result(8, '2026-10-06T09:00:00Z'), facilitiesListDocument(8), new Blob([new Uint8Array(10)]));
    expect((await readKeptPdf('u:1', facilitiesListDocument(7).id))?.size).toBe(3000);
    expect((await readKeptPdf('u:1', facilitiesListDocument(8).id))?.size).toBe(10);
    expect(await readKeptPdf('g:5', facilitiesListDocument(7).id)).toBeNull();
    const kept = await listKept('u:1');
    expect(kept.find((copy) => copy.screeningId === 7)?.documents).toEqual([
      { documentId: 'facilities-list-7', type: 'facilitiesList', language: null, sizeBytes: 3000 },
    ]);
    await deleteKeptScreening('u:1', 7);
    expect(await readKeptPdf('u:1', facilitiesListDocument(7).id)).toBeNull();
    expect(await readKeptPdf('u:1', facilitiesListDocument(8).id)).not.toBeNull();
  });

  it('keeps the last list of each kind for its owner only; deleting all keeps her choice, stopping ends it', async () => {
    await keepingUnlocked('u:1');
    await keepList('u:1', 'screenings', { items: ['old'] });
    await keepList('u:1', 'screenings', { items: ['new'] });
    expect((await readKeptList('u:1', 'screenings'))?.list).toEqual({ items: ['new'] });
    expect(await readKeptList('u:1', 'referrals')).toBeNull();
    expect(await readKeptList('g:5', 'screenings')).toBeNull();
    expect(await keptListTimes('u:1')).toHaveLength(1);
    expect(await hasKeptCopies('u:1')).toBe(true);
    expect(await hasKeptCopies('g:5')).toBe(false);

    await deleteAllKept('u:1');
    expect(await readKeptList('u:1', 'screenings')).toBeNull();
    expect(await hasKeptCopies('u:1')).toBe(false);
    expect(await keepsCopies('u:1')).toBe(true);

    await keepList('u:1', 'referrals', { items: [] });
    await stopKeeping('u:1');
    expect(await keepsCopies('u:1')).toBe(false);
    expect(await rawRecords()).toEqual([]);
  });
});
