import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScreeningResult } from '@common/types/result';
import type { ScreeningDocument } from '@common/types/screenings';
import { startOpeningKeptDescriptions, takeKeptPdf } from './kept-descriptions';
import { keepDocument, startKeeping, stopKeeping, unlockKeptCopies } from '../documents/offline-copies';
import { lockAllCopies } from '../documents/copies-lock';

const openPdf = vi.fn(async (data: ArrayBuffer) => {
  const text = new TextDecoder().decode(data);
  if (!text.startsWith('%PDF')) throw Object.assign(new Error('bad'), { name: 'InvalidPdfError' });
  return { pageCount: 1, text, renderPage: vi.fn(), destroy: vi.fn() };
});
vi.mock('../lib/pdf', () => ({ openPdf }));

const english: ScreeningDocument = { id: 'desc-en', name: 'opis EN.pdf', type: 'description', language: 'en', sizeBytes: 10 };
const polish: ScreeningDocument = { id: 'desc-pl', name: 'opis.pdf', type: 'description', language: 'pl', sizeBytes: 10 };
const referral: ScreeningDocument = { id: 'ref', name: 'Skierowanie.pdf', type: 'referral', language: null, sizeBytes: 10 };

function result(documents: ScreeningDocument[]): ScreeningResult {
  return {
    screening: {
      id: 7,
      examinedAt: '2026-10-06T09:00:00Z',
      firstName: 'Maria',
      lastName: 'Kowalska',
      absorbedDoseMgy: 1.2,
      result: 1,
      descriptionsStatus: 'desc_all_completed',
      signedAt: null,
    },
    documents,
    hasFacilitiesList: false,
    iso: { status: 'no_request' },
    survey: { submitted: false },
  };
}

const pdfOf = (text: string) => new Blob([text], { type: 'application/pdf' });
const openedText = (document: unknown) => (document as { text: string } | undefined)?.text;

describe('kept descriptions opened ahead', () => {
  beforeEach(async () => {
    openPdf.mockClear();
    lockAllCopies();
    await stopKeeping('u:1');
    await stopKeeping('u:2');
    // Only a patient who chose to keep copies has any, opened here once her PIN was typed.
    await startKeeping('u:1', '482915');
    await unlockKeptCopies('u:1', '482915');
  });

  it('hands the viewer its kept description already open, once', async () => {
    const shown = result([english, referral]);
    await keepDocument('u:1', shown, english, pdfOf('%PDF english'));
    await keepDocument('u:1', shown, referral, pdfOf('%PDF referral'));

    startOpeningKeptDescriptions('u:1', shown);
    const taken = await takeKeptPdf('u:1', english.id);
    expect(openedText(taken?.document)).toBe('%PDF english');
    expect(await taken?.blob.text()).toBe('%PDF english');
    // The referral opens on request only: nothing was opened for it.
    expect(openPdf).toHaveBeenCalledTimes(1);

    // Handed over once: a second viewer reads the copy again and opens its own.
    const again = await takeKeptPdf('u:1', english.id);
    expect(again?.document).toBeUndefined();
    expect(await again?.blob.text()).toBe('%PDF english');
  });

  it('finds nothing for a description that was never kept', async () => {
    startOpeningKeptDescriptions('u:1', result([english, polish]));
    expect(await takeKeptPdf('u:1', polish.id)).toBeNull();
    expect(openPdf).not.toHaveBeenCalled();
  });

  it('hands over a copy the PDF engine cannot open unopened, so it can still be downloaded', async () => {
    const shown = result([english]);
    await keepDocument('u:1', shown, english, pdfOf('not a pdf'));
    startOpeningKeptDescriptions('u:1', shown);
    const taken = await takeKeptPdf('u:1', english.id);
    expect(taken?.document).toBeUndefined();
    expect(await taken?.blob.text()).toBe('not a pdf');
  });

  it('drops what an earlier opening of the page started and nobody took', async () => {
    const shown = result([english]);
    await keepDocument('u:1', shown, english, pdfOf('%PDF first'));
    startOpeningKeptDescriptions('u:1', shown);
    await vi.waitFor(() => expect(openPdf).toHaveBeenCalledTimes(1));
    const untaken = (await openPdf.mock.results[0]!.value) as { destroy: () => void };

    await keepDocument('u:1', shown, english, pdfOf('%PDF kept again'));
    startOpeningKeptDescriptions('u:1', shown);
    expect(openedText((await takeKeptPdf('u:1', english.id))?.document)).toBe('%PDF kept again');
    expect(untaken.destroy).toHaveBeenCalled();
  });

  it("never hands one owner's opened document to another", async () => {
    const shown = result([english]);
    await keepDocument('u:1', shown, english, pdfOf('%PDF of user 1'));
    startOpeningKeptDescriptions('u:1', shown);
    expect(await takeKeptPdf('u:2', english.id)).toBeNull();
    expect(openedText((await takeKeptPdf('u:1', english.id))?.document)).toBe('%PDF of user 1');
  });
});

describe('kept descriptions when her copies are locked again', () => {
  it('drops what was opened and not taken', async () => {
    openPdf.mockClear();
    lockAllCopies();
    await stopKeeping('u:1');
    await startKeeping('u:1', '482915');
    await unlockKeptCopies('u:1', '482915');
    const shown = result([english]);
    await keepDocument('u:1', shown, english, pdfOf('%PDF english'));
    startOpeningKeptDescriptions('u:1', shown);
    await vi.waitFor(() => expect(openPdf).toHaveBeenCalledTimes(1));
    const untaken = (await openPdf.mock.results[0]!.value) as { destroy: () => void };

    // Her session ended (client/shell/layout/device-session.ts): nothing read from her copies stays.
    lockAllCopies();
    await vi.waitFor(() => expect(untaken.destroy).toHaveBeenCalled());
    await expect(takeKeptPdf('u:1', english.id)).rejects.toThrow('locked');
  });
});
