// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReferralListItem } from '@common/types/screenings';
import { resetCsrfToken } from '../../lib/api';
import { readKeptList, startKeeping, stopKeeping, unlockKeptCopies } from '../../documents/offline-copies';
import { lockAllCopies } from '../../documents/copies-lock';
import { setSignedIn } from '../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import ReferralsPage from './ReferralsPage';

// PDF.js needs a real canvas: the viewer gets a one-page document that draws nothing.
vi.mock('../../lib/pdf', () => ({
  openPdf: () => Promise.resolve({ pageCount: 1, renderPage: () => Promise.resolve(), destroy: () => Promise.resolve() }),
}));

const REFERRALS: ReferralListItem[] = [
  // 23:30 UTC on 4 March is already 5 March in Warsaw, the day the file is named after.
  { screeningId: 12, createdAt: '2024-03-04T23:30:00Z', documentId: 'r12', name: 'skierowanie.pdf' },
  { screeningId: 9, createdAt: '2022-03-08T07:55:00Z', documentId: 'r9', name: 'skierowanie.pdf' },
];

function routes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /screenings/referrals': () => ({ body: { items: REFERRALS } }),
    'GET /screening/referral': () => ({ body: '%PDF-1.7' }),
    ...overrides,
  };
}

function requestedUrls(path: string): string[] {
  return vi
    .mocked(fetch)
    .mock.calls.map(([url]) => String(url))
    .filter((url) => url.split('?')[0] === `/api${path}`);
}

async function findRows(count: number) {
  await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(count));
  return screen.getAllByRole('row').slice(1);
}

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedIn(demoPatient);
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ReferralsPage', () => {
  it('fetches the chosen referral in Polish, shows it and saves it under its Polish name', async () => {
    fakeApi(routes());
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderAt('/referral', <ReferralsPage />);
    const [first] = await findRows(2);
    await userEvent.click(within(first!).getByRole('rowheader'));

    const viewer = await screen.findByRole('region', { name: /^Referral of March [45], 2024$/ });
    expect(await within(viewer).findByRole('img', { name: 'Page 1 of 1' })).toBeTruthy();
    expect(requestedUrls('/screening/referral')).toEqual(['/api/screening/referral?id=12&lang=pl']);

    await userEvent.click(within(viewer).getByRole('button', { name: 'Download PDF' }));
    expect(saved).toEqual(['skierowanie-2024-03-05.pdf']);

    // A second click on the row closes the referral again.
    await userEvent.click(within(first!).getByRole('rowheader'));
    expect(screen.queryByRole('region', { name: /^Referral of/ })).toBeNull();
  });

  it('notifies "fetch referral pdf error" when the referral cannot be fetched', async () => {
    fakeApi(routes({ 'GET /screening/referral': () => ({ status: 500, body: { code: 'INTERNAL' } }) }));
    renderAt('/referral', <ReferralsPage />);
    const [, second] = await findRows(2);
    await userEvent.click(within(second!).getByRole('rowheader'));
    await waitFor(() => expect(notifications.items.map((item) => [item.kind, item.key])).toEqual([['error', 'result.errors.referral']]));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('clears the days and asks for the list again', async () => {
    fakeApi(routes());
    renderAt('/referral', <ReferralsPage />);
    await findRows(2);
    await userEvent.click(screen.getByRole('button', { name: 'Clear and reload' }));
    await waitFor(() => expect(requestedUrls('/screenings/referrals')).toHaveLength(2));
    expect(requestedUrls('/screenings/referrals')).toEqual(['/api/screenings/referrals', '/api/screenings/referrals']);
  });
});

describe('ReferralsPage offline', () => {
  // She chose to keep copies on this device, and (offline) typed her PIN.
  beforeEach(async () => {
    lockAllCopies();
    await stopKeeping('u:1');
    await startKeeping('u:1', '482915');
    await unlockKeptCopies('u:1', '482915');
  });

  it("shows the referrals last seen from the device when the browser knows it is offline, and the server's again once online", async () => {
    fakeApi(routes());
    renderAt('/referral', <ReferralsPage />);
    await findRows(2);
    await waitFor(async () => expect(await readKeptList('u:1', 'referrals')).not.toBeNull());
    cleanup();

    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fakeApi(routes());
    renderAt('/referral', <ReferralsPage />);
    await findRows(2);
    expect((await screen.findByText(/^Offline copy from/)).textContent).toContain('need an internet connection');
    // Nothing was asked of the server: the browser knows it has no network.
    expect(requestedUrls('/screenings/referrals')).toEqual([]);

    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(/^Offline copy from/)).toBeNull());
    expect(requestedUrls('/screenings/referrals')).toEqual(['/api/screenings/referrals']);
  });

  it('says the referrals cannot be retrieved offline when none were kept', async () => {
    fakeApi(routes({ 'GET /screenings/referrals': () => Promise.reject(new TypeError('Failed to fetch')) }));
    renderAt('/referral', <ReferralsPage />);
    expect(await screen.findByText('Your referrals could not be retrieved')).toBeTruthy();
    expect(screen.queryByText(/^Offline copy from/)).toBeNull();
  });
});
