import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ScreeningResult } from '@common/types/result';
import type { ScreeningDocument } from '@common/types/screenings';
import { facilitiesListDocument } from './kept-documents';
import {
  deleteAllKept,
  deleteKeptScreening,
  hasKeptCopies,
  keepDocument,
  keepList,
  keptListTimes,
  listKept,
  onKeptChange,
  readKeptList,
  readKeptPdf,
  readKeptScreening,
  refreshKeptScreening,
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

const description: ScreeningDocument = { id: 'doc-en', name: 'opis EN.pdf', type: 'description', language: 'en', sizeBytes: 2048 };
const pdf = () => new Blob([new Uint8Array(3000)], { type: 'application/pdf' });

describe('offline copies', () => {
  beforeEach(async () => {
    await deleteAllKept('g:5');
    await deleteAllKept('u:1');
  });

  it('keeps an opened document with the screening data shown with it', async () => {
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
    await refreshKeptScreening('u:1', result(7, '2026-10-06T09:00:00Z'));
    expect(await readKeptScreening('u:1', 7)).toBeNull();
    await keepDocument('u:1', result(7, '2026-10-06T09:00:00Z'), description, pdf());
    await refreshKeptScreening('u:1', result(7, '2026-10-06T09:00:00Z', 'Marta'));
    expect((await readKeptScreening('u:1', 7))?.result.screening.firstName).toBe('Marta');
  });

  it('lists the kept screenings newest first with their documents and sizes', async () => {
    await keepDocument('u:1', result(7, '2025-10-06T09:00:00Z'), description, pdf());
    await keepDocument('u:1', result(8, '2026-10-06T09:00:00Z'), { ...description, id: 'doc-pl', language: 'pl' }, pdf());
    const kept = await listKept('u:1');
    expect(kept.map((copy) => copy.screeningId)).toEqual([8, 7]);
    expect(kept[0]?.documents).toEqual([{ documentId: 'doc-pl', type: 'description', language: 'pl', sizeBytes: 3000 }]);
  });

  it('keeps the facilities list, which has no document id, once per screening and deletes it with the screening', async () => {
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

  it("keeps the last list of each kind for its owner only, and deletes it with the owner's copies", async () => {
    await keepList('u:1', 'screenings', { items: ['old'] });
    await keepList('u:1', 'screenings', { items: ['new'] });
    expect((await readKeptList('u:1', 'screenings'))?.list).toEqual({ items: ['new'] });
    expect(await readKeptList('u:1', 'referrals')).toBeNull();
    expect(await readKeptList('g:5', 'screenings')).toBeNull();
    expect(await keptListTimes('u:1')).toHaveLength(1);
    // A kept list is an offline copy: logging out asks whether it stays.
    expect(await hasKeptCopies('u:1')).toBe(true);
    expect(await hasKeptCopies('g:5')).toBe(false);

    await deleteAllKept('u:1');
    expect(await readKeptList('u:1', 'screenings')).toBeNull();
    expect(await hasKeptCopies('u:1')).toBe(false);
  });
});
