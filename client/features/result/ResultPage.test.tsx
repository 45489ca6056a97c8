// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../lib/api';
import { setSignedIn } from '../../stores/session-store';
import { demoScreening } from '../../testing/result';
import { demoGuest, demoPatient, fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../testing/session';
import { facilitiesListDocument } from '../../documents/kept-documents';
import { readKeptPdf, startKeeping, stopKeeping, unlockKeptCopies } from '../../documents/offline-copies';
import { lockAllCopies } from '../../documents/copies-lock';
import { KeptCopiesLock } from '../../documents/KeptCopiesLock';
import { arriveWithPage } from '../../early-start/result-requests';
import { IsoSection } from './IsoSection';
import type { IsoStatus, ScreeningResult } from '@common/types/result';
import ResultPage from './ResultPage';

const result: ScreeningResult = {
  screening: { ...demoScreening, descriptionsStatus: 'desc_in_progress', signedAt: null },
  documents: [
    { id: 'a1', name: 'opis-badania-EN.pdf', type: 'description', language: 'en', sizeBytes: 1000 },
    { id: 'a2', name: 'opis-badania.pdf', type: 'description', language: 'pl', sizeBytes: 1000 },
  ],
  hasFacilitiesList: false,
  iso: { status: 'no_request' },
  survey: { submitted: false },
};

function resultRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /screening/result': () => ({ body: result }),
    'GET /banners': () => ({ body: [] }),
    'GET /screening/41/referral/exists': () => ({ body: { exists: false } }),
    ...overrides,
  };
}

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedIn(demoGuest);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ResultPage', () => {
  it('shows the examination table, the result in words and the description still in progress', async () => {
    fakeApi(resultRoutes());
    renderAt('/screening', <ResultPage />);
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('row', { name: /First name Maria/ })).toBeTruthy();
    expect(within(table).getByRole('row', { name: /Last name Kowalska/ })).toBeTruthy();
    expect(within(table).getByRole('row', { name: /Absorbed dose 2.75 mGy/ })).toBeTruthy();
    expect(within(table).getByRole('row', { name: 'Result Delicate change (benign finding)' })).toBeTruthy();
    expect(within(table).getByText(/15 business days/)).toBeTruthy();
  });

  it('shows a result the server sent with the page in its first render, without asking for it again', async () => {
    const requests = fakeApi(resultRoutes());
    const forget = arriveWithPage({ result, banners: { 'top-placement': [], 'bottom-placement': [] } });
    try {
      renderAt('/screening', <ResultPage />);
      expect(screen.queryByText('Loading the result…')).toBeNull();
      expect(within(screen.getByRole('table')).getByRole('row', { name: /First name Maria/ })).toBeTruthy();
      await screen.findByRole('heading', { name: 'Description (Polish)' });
      expect(requests.filter((request) => request.path === '/screening/result')).toEqual([]);
    } finally {
      forget();
    }
  });

  it('offers one viewer per description, named by the language in its file name', async () => {
    fakeApi(resultRoutes());
    renderAt('/screening', <ResultPage />);
    expect(await screen.findByRole('heading', { name: 'Description (English)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Description (Polish)' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Referral' })).toBeNull();
  });

  it('says when it cannot tell whether there is a referral', async () => {
    fakeApi(resultRoutes({ 'GET /screening/41/referral/exists': () => ({ status: 500, body: { code: 'INTERNAL' } }) }));
    renderAt('/screening', <ResultPage />);
    expect(await screen.findByText('Could not determine whether the test has a referral')).toBeTruthy();
  });

  it('says the result could not be retrieved', async () => {
    fakeApi(resultRoutes({ 'GET /screening/result': () => ({ status: 500, body: { code: 'INTERNAL' } }) }));
    renderAt('/screening', <ResultPage />);
    expect(await screen.findByText('The result could not be retrieved')).toBeTruthy();
  });

  it('shows a PDF that cannot be read as an invalid file format', async () => {
    fakeApi(resultRoutes({ 'GET /screening/download-result': () => ({ body: 'not a pdf' }) }));
    vi.doMock('../../lib/pdf', () => ({
      openPdf: () => Promise.reject(Object.assign(new Error('bad'), { name: 'InvalidPdfError' })),
    }));
    renderAt('/screening', <ResultPage />);
    const viewer = (await screen.findByRole('heading', { name: 'Description (English)' })).closest('section');
    await userEvent.click(within(viewer as HTMLElement).getByRole('button', { name: 'Show document' }));
    expect(await within(viewer as HTMLElement).findByText(/Invalid file format/)).toBeTruthy();
    vi.doUnmock('../../lib/pdf');
  });

  it('keeps the facilities list when it is opened, only once she chose to keep copies, and shows it from the device offline', async () => {
    lockAllCopies();
    await stopKeeping('g:41'); // what earlier tests opened
    const withList = { ...result, hasFacilitiesList: true };
    let online = true;
    const requests = fakeApi(
      resultRoutes({
        'GET /screening/result': () => {
          if (!online) throw new TypeError('Failed to fetch');
          return { body: withList };
        },
        'GET /screening/download-wykaz': () => {
          if (!online) throw new TypeError('Failed to fetch');
          return { body: 'facilities list bytes' };
        },
      }),
    );
    vi.doMock('../../lib/pdf', () => ({
      openPdf: () => Promise.resolve({ pageCount: 1, renderPage: () => Promise.resolve(), destroy: () => Promise.resolve() }),
    }));
    const listViewer = async () => (await screen.findByRole('heading', { name: 'List of facilities' })).closest('section') as HTMLElement;
    const openList = async () => {
      renderAt('/screening', <ResultPage />);
      await userEvent.click(within(await listViewer()).getByRole('button', { name: 'Show document' }));
      expect(await within(await listViewer()).findByRole('img', { name: /Page 1/ })).toBeTruthy();
      cleanup();
    };

    // Opened before she chose to keep copies: shown from memory, nothing kept.
    await openList();
    expect(await readKeptPdf('g:41', facilitiesListDocument(41).id)).toBeNull();

    // Kept under the id made from its screening, for the guest's owner key, once she chose to.
    await startKeeping('g:41', '482915');
    await openList();
    await unlockKeptCopies('g:41', '482915');
    expect(await (await readKeptPdf('g:41', facilitiesListDocument(41).id))?.text()).toContain('facilities list bytes');

    online = false;
    renderAt('/screening', <ResultPage />);
    expect(await screen.findByText(/Offline copy from/)).toBeTruthy();
    // The two descriptions were never opened: refused; the list was: offered.
    await waitFor(() => expect(screen.getAllByText('This document is not available offline.')).toHaveLength(2));
    const offlineViewer = await listViewer();
    expect(within(offlineViewer).getByRole('button', { name: 'Show document' })).toBeTruthy();
    expect(within(offlineViewer).queryByText('This document is not available offline.')).toBeNull();
    expect(requests.filter((request) => request.path === '/screening/download-wykaz')).toHaveLength(2);
    vi.doUnmock('../../lib/pdf');
  });

  it('offline, asks for her device PIN before showing her kept result, and refuses a wrong one', async () => {
    lockAllCopies();
    await stopKeeping('g:41');
    await startKeeping('g:41', '482915');
    fakeApi(resultRoutes({ 'GET /screening/download-result': () => ({ body: 'description bytes' }) }));
    vi.doMock('../../lib/pdf', () => ({
      openPdf: () => Promise.resolve({ pageCount: 1, renderPage: () => Promise.resolve(), destroy: () => Promise.resolve() }),
    }));
    renderAt('/screening', <ResultPage />);
    const viewer = (await screen.findByRole('heading', { name: 'Description (English)' })).closest('section') as HTMLElement;
    await userEvent.click(within(viewer).getByRole('button', { name: 'Show document' }));
    expect(await within(viewer).findByRole('img', { name: /Page 1/ })).toBeTruthy();
    cleanup();
    lockAllCopies();

    fakeApi(resultRoutes({ 'GET /screening/result': () => Promise.reject(new TypeError('Failed to fetch')) }));
    renderAt(
      '/screening',
      <KeptCopiesLock>
        <ResultPage />
      </KeptCopiesLock>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your device PIN' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Device PIN'));
    await userEvent.keyboard('111111{Enter}');
    expect(await screen.findByText('Wrong PIN. 4 attempts left.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Device PIN'));
    await userEvent.type(screen.getByLabelText('Device PIN'), '482915{Enter}');
    expect(await screen.findByText(/Offline copy from/)).toBeTruthy();
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Enter your device PIN' })).toBeNull();
    vi.doUnmock('../../lib/pdf');
  });

  it('links the survey of a patient screening by its id', async () => {
    fakeApi(resultRoutes());
    renderAt('/screening/41', <Route path="/screening/:id" component={ResultPage} />);
    const link = await screen.findByRole('link', { name: 'Fill in the survey' });
    expect(link.getAttribute('href')).toBe('/screening/41/survey');
  });
});

describe('ResultPage order links', () => {
  it('offers a patient to order a copy and to buy a translation or consultation', async () => {
    setSignedIn(demoPatient);
    fakeApi(resultRoutes({ 'GET /screening/order-copy/41': () => ({ body: { canOrder: true } }) }));
    renderAt('/screening/41', <Route path="/screening/:id" component={ResultPage} />);
    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeTruthy();
    const copy = () => screen.getByRole('link', { name: 'Order a copy of records' });
    await waitFor(() => expect(copy().getAttribute('aria-disabled')).toBeNull());
    expect(copy().getAttribute('href')).toBe('/order-screening-copy/41');
    expect(screen.getByRole('link', { name: 'Buy translation or consultation' }).getAttribute('href')).toBe(
      '/buy-consultation/screening/41',
    );
  });

  it('disables the copy order while an order of the screening is open', async () => {
    setSignedIn(demoPatient);
    fakeApi(resultRoutes({ 'GET /screening/order-copy/41': () => ({ body: { canOrder: false } }) }));
    renderAt('/screening/41', <Route path="/screening/:id" component={ResultPage} />);
    expect(await screen.findByText('Available when the current order is completed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Order a copy of records' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('offers no orders to a result-portal guest', async () => {
    fakeApi(resultRoutes());
    renderAt('/screening', <ResultPage />);
    await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: 'Order a copy of records' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Buy translation or consultation' })).toBeNull();
  });
});

describe('IsoSection', () => {
  const renderIso = (status: IsoStatus) => renderAt('/screening', <IsoSection screeningId={41} initialStatus={status} />);

  it.each(['no_request', 'removed'] as const)('offers to generate the image when %s', (status) => {
    fakeApi({});
    renderIso(status);
    expect(screen.getByRole('button', { name: 'Generate ISO Image' })).toBeTruthy();
  });

  it('hides itself when the screening has no images', () => {
    fakeApi({});
    renderIso('empty');
    expect(screen.queryByRole('heading')).toBeNull();
  });

  describe('download when the image is done', () => {
    /** The links the section handed to the browser to download. */
    function capturedDownloads(): string[] {
      const downloads: string[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(this: HTMLAnchorElement) {
        if (this.hasAttribute('download')) downloads.push(this.getAttribute('href') ?? '');
      });
      return downloads;
    }
    afterEach(() => vi.restoreAllMocks());

    it('checks the first byte, then lets the browser download the image', async () => {
      const requests = fakeApi({ 'GET /iso': () => ({ status: 206, body: 'C' }) });
      const downloads = capturedDownloads();
      renderIso('done');
      await userEvent.click(screen.getByRole('button', { name: 'Download ISO Image' }));
      await waitFor(() => expect(downloads).toEqual(['/api/iso?id=41']));
      expect(requests.find((request) => request.path === '/iso')?.headers).toMatchObject({ Range: 'bytes=0-0' });
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it.each([
      [503, { code: 'NO_CONNECTION', detail: 'no_connection' }, 'No connection to external service. Please try again later.'],
      [500, { code: 'INTERNAL' }, 'The ISO Image could not be downloaded. Please try again later.'],
      [416, undefined, 'The ISO Image could not be downloaded. Please try again later.'],
    ])('answers a %s with its message and downloads nothing', async (status, body, message) => {
      fakeApi({ 'GET /iso': () => ({ status, body }) });
      const downloads = capturedDownloads();
      renderIso('done');
      await userEvent.click(screen.getByRole('button', { name: 'Download ISO Image' }));
      expect(await screen.findByText(message)).toBeTruthy();
      expect(downloads).toEqual([]);
      expect(screen.getByRole('button', { name: 'Download ISO Image' })).toBeTruthy();
    });

    it('offers to generate again when the image was removed meanwhile', async () => {
      fakeApi({
        'GET /iso': () => ({ status: 404, body: { code: 'NOT_FOUND' } }),
        'GET /iso/status': () => ({ body: { status: 'removed' } }),
      });
      capturedDownloads();
      renderIso('done');
      await userEvent.click(screen.getByRole('button', { name: 'Download ISO Image' }));
      expect(await screen.findByText('The ISO Image could not be downloaded. Please try again later.')).toBeTruthy();
      expect(await screen.findByRole('button', { name: 'Generate ISO Image' })).toBeTruthy();
    });

    it('says the device is offline when the server cannot be reached', async () => {
      fakeApi({
        'GET /iso': () => {
          throw new TypeError('Failed to fetch');
        },
      });
      renderIso('done');
      await userEvent.click(screen.getByRole('button', { name: 'Download ISO Image' }));
      expect(await screen.findByText('You are offline. Check your connection and try again.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Download ISO Image' })).toBeTruthy();
    });
  });

  it('accepts the order, then polls the status until the image is done', async () => {
    let polls = 0;
    fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /iso/generate': () => ({ status: 202, body: { status: 'new' } }),
      'GET /iso/status': () => ({ body: { status: ++polls < 2 ? 'in_progress' : 'done' } }),
    });
    renderIso('no_request');
    await userEvent.click(screen.getByRole('button', { name: 'Generate ISO Image' }));
    expect(await screen.findByText('The order to generate the ISO Image has been accepted')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download ISO Image' })).toBeTruthy(), { timeout: 12_000 });
    expect(polls).toBe(2);
  }, 15_000);

  it.each([
    [500, 'ISO_GENERATOR_BUSY', 'The system is struggling with too many ISO Image requests. Please try again later.'],
    [503, 'NO_CONNECTION', 'No connection to external service. Please try again later.'],
    [500, 'INTERNAL', 'The ISO Image could not be generated. Please try again later.'],
  ])('answers a %s %s with its message', async (status, code, message) => {
    fakeApi({
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /iso/generate': () => ({ status, body: { code } }),
    });
    renderIso('no_request');
    await userEvent.click(screen.getByRole('button', { name: 'Generate ISO Image' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Generate ISO Image' })).toBeTruthy();
  });
});
