// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScreeningListItem, ScreeningOrder } from '@common/types/screenings';
import { resetCsrfToken } from '../../lib/api';
import { readKeptList, startKeeping, stopKeeping, unlockKeptCopies } from '../../documents/offline-copies';
import { lockAllCopies } from '../../documents/copies-lock';
import { setSignedIn } from '../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../testing/session';
import ScreeningsPage from './ScreeningsPage';

function item(id: number, overrides: Partial<ScreeningListItem['screening']> = {}, orders: ScreeningOrder[] = []): ScreeningListItem {
  return {
    screening: {
      id,
      createdAt: `2024-0${Math.min(id, 9)}-10T08:30:00Z`,
      screeningDescriptionsStatus: 'desc_all_completed',
      absorbedDose: 4.12,
      result: 1,
      signed: true,
      signedAt: '2024-01-12T10:00:00Z',
      ...overrides,
    },
    documents: [
      { id: `d${id}`, name: 'opis-badania.pdf', type: 'description', language: 'pl', sizeBytes: 1000 },
      { id: `r${id}`, name: 'skierowanie.pdf', type: 'referral', language: 'pl', sizeBytes: 900 },
    ],
    hasFacilitiesList: false,
    orders,
  };
}

const order = (id: number, done: boolean, payment: ScreeningOrder['payment'], shipmentStatus: ScreeningOrder['shipmentStatus']) => ({
  id,
  done,
  payment,
  shipmentStatus,
  productCode: 'images_copy',
});

const SEVEN: ScreeningListItem[] = [
  item(7, { screeningDescriptionsStatus: 'desc_in_progress', result: null, signed: false, signedAt: null }),
  item(6, { result: 5 }, [
    order(30, true, { id: 3, status: 'COMPLETED' }, 'delivered'),
    order(31, false, { id: 4, status: 'PENDING' }, 'awaiting'),
  ]),
  item(5, { result: -1 }, [
    order(20, true, { id: 1, status: 'COMPLETED' }, 'collected'),
    order(21, true, { id: 2, status: 'CANCELED' }, 'not_applicable'),
  ]),
  item(4, { result: 4, absorbedDose: null }),
  item(3, { result: 3 }),
  item(2, { result: 2 }),
  item(1),
];

function routes(items: ScreeningListItem[] = SEVEN, overrides: FakeRoutes = {}): FakeRoutes {
  return { 'GET /screenings': () => ({ body: { items } }), 'GET /screenings/referrals': () => ({ body: { items: [] } }), ...overrides };
}

/** The query of every `GET /api/screenings` sent so far. */
function listQueries(): URLSearchParams[] {
  return vi
    .mocked(fetch)
    .mock.calls.map(([url]) => String(url))
    .filter((url) => url.startsWith('/api/screenings?') || url === '/api/screenings')
    .map((url) => new URLSearchParams(url.split('?')[1] ?? ''));
}

const bodyRows = () => screen.getAllByRole('row').slice(1);

/** react-aria builds the table's rows after the grid itself: wait for them. */
async function findTable(rows: number) {
  await waitFor(() => expect(bodyRows()).toHaveLength(rows));
  return screen.getByRole('grid', { name: 'Your screenings' });
}

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedIn(demoPatient);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ScreeningsPage', () => {
  it('shows five screenings a page with every column of the spec, and turns pages in the URL', async () => {
    fakeApi(routes());
    const { location } = renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);

    const inProgress = within(bodyRows()[0]!);
    expect(inProgress.getByText(/During description/)).toBeTruthy();
    expect(inProgress.getByText('No payment found')).toBeTruthy();
    expect(inProgress.getByRole('link', { name: 'Order a copy' }).getAttribute('href')).toBe('/order-screening-copy/7');

    // The first order not done is shown, and a new one waits for it.
    const openOrder = within(bodyRows()[1]!);
    expect(openOrder.getByText('Malicious change (highly suggestive of malignancy)')).toBeTruthy();
    expect(openOrder.getByText('Pending')).toBeTruthy();
    expect(openOrder.getByText('Awaiting preparation')).toBeTruthy();
    expect(openOrder.getByRole('link', { name: 'Order a copy' }).getAttribute('aria-disabled')).toBe('true');

    // Every order done: the latest one is shown.
    const doneOrders = within(bodyRows()[2]!);
    expect(doneOrders.getByText('Cancelled')).toBeTruthy();
    expect(doneOrders.getByText('Not applicable')).toBeTruthy();
    expect(doneOrders.getByText('✓', { exact: false })).toBeTruthy();
    expect(doneOrders.getByText('4.12 mGy')).toBeTruthy();
    expect(doneOrders.getByRole('button', { name: 'Check what the absorbed dose means' })).toBeTruthy();

    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await findTable(2);
    expect(within(bodyRows()[0]!).getByRole('rowheader').textContent).toMatch(/2024/);
    expect(location.history.at(-1)).toBe('/screenings?page=2');
  });

  it('keeps filters and page from the URL and sends the filters with the browser time zone', async () => {
    fakeApi(routes([]));
    renderAt('/screenings?from=2022-01-01&to=2022-12-31&signed=true&result=-1&screeningId=5&page=3', <ScreeningsPage />);
    expect(await screen.findByText('No screening matches the filters.')).toBeTruthy();
    const query = listQueries().at(-1)!;
    expect(Object.fromEntries(query)).toEqual({
      from: '2022-01-01',
      to: '2022-12-31',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      signed: 'true',
      result: '-1',
      screeningId: '5',
    });
    expect(screen.getByText('4 filters on')).toBeTruthy();
  });

  it('applies the filters chosen in the popover and clears them again', async () => {
    fakeApi(routes());
    const { location } = renderAt('/screenings?page=2', <ScreeningsPage />);
    await findTable(2);
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter screenings' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Not signed' }));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'No result yet' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location.history.at(-1)).toBe('/screenings?signed=false&result=none');
    await waitFor(() => expect(Object.fromEntries(listQueries().at(-1)!)).toEqual({ signed: 'false', result: 'none' }));

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(location.history.at(-1)).toBe('/screenings');
  });

  it('refuses a test ID that is not a number, with a message', async () => {
    fakeApi(routes());
    const { location } = renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Test ID' }), '12a');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Enter the test ID as a whole number, e.g. 42')).toBeTruthy();
    expect(location.history.at(-1)).toBe('/screenings');
  });

  it('selects a row to show its documents and links, and deselects it with a second click', async () => {
    fakeApi(routes());
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    const row = bodyRows()[2]!;
    await userEvent.click(within(row).getByRole('rowheader'));
    expect(row.getAttribute('aria-selected')).toBe('true');

    const details = screen.getByRole('region', { name: /^Documents of the screening of/ });
    expect(within(details).getByRole('heading', { name: 'Description (Polish)' })).toBeTruthy();
    expect(within(details).getByRole('heading', { name: 'Referral' })).toBeTruthy();
    expect(within(details).getByRole('link', { name: 'Go to the result page' }).getAttribute('href')).toBe('/screening/5');
    expect(within(details).getByRole('link', { name: 'Satisfaction survey' }).getAttribute('href')).toBe('/screening/5/survey');

    await userEvent.click(within(row).getByRole('rowheader'));
    expect(row.getAttribute('aria-selected')).toBe('false');
    expect(screen.queryByRole('region', { name: /^Documents of the screening of/ })).toBeNull();
  });

  it('forgets the selection when another page is shown', async () => {
    fakeApi(routes());
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await userEvent.click(within(bodyRows()[0]!).getByRole('rowheader'));
    expect(bodyRows()[0]!.getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await findTable(2);
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await findTable(5);
    expect(bodyRows()[0]!.getAttribute('aria-selected')).toBe('false');
    expect(screen.queryByRole('region', { name: /^Documents of the screening of/ })).toBeNull();
  });

  it('says when the list cannot be retrieved and tries again on request', async () => {
    let calls = 0;
    fakeApi(
      routes(SEVEN, {
        'GET /screenings': () => (++calls === 1 ? { status: 500, body: { code: 'INTERNAL' } } : { body: { items: SEVEN } }),
      }),
    );
    renderAt('/screenings', <ScreeningsPage />);
    expect(await screen.findByText('Your screenings could not be retrieved')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await findTable(5)).toBeTruthy();
  });

  it('says when there are no screenings at all', async () => {
    fakeApi(routes([]));
    renderAt('/screenings', <ScreeningsPage />);
    expect(await screen.findByText('You have no screenings yet.')).toBeTruthy();
  });

  it('opens the referrals tab, kept in the URL', async () => {
    fakeApi(routes());
    const { location } = renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await userEvent.click(screen.getByRole('tab', { name: 'Referrals' }));
    expect(await screen.findByText('You have no referrals.')).toBeTruthy();
    expect(location.history.at(-1)).toBe('/screenings?tab=referrals');
  });
});

describe('ScreeningsPage offline', () => {
  const networkDown = () => Promise.reject(new TypeError('Failed to fetch'));
  const offlineRoutes: FakeRoutes = { 'GET /screenings': networkDown, 'GET /screenings/referrals': networkDown };
  const keptScreenings = () => readKeptList<{ items: ScreeningListItem[] }>('u:1', 'screenings');

  beforeEach(async () => {
    lockAllCopies();
    await stopKeeping('u:1');
    await stopKeeping('u:2');
  });

  /** She chose to keep copies on this device, and (offline) typed her PIN. */
  async function keepingWithPin(): Promise<void> {
    await startKeeping('u:1', '482915');
    await unlockKeptCopies('u:1', '482915');
  }

  it('keeps nothing of the list until she chooses to keep copies on this device', async () => {
    fakeApi(routes());
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    expect(await screen.findByRole('switch', { name: 'Keep my results on this device for offline reading' })).toBeTruthy();
    cleanup();
    expect(await keptScreenings()).toBeNull();

    fakeApi(offlineRoutes);
    renderAt('/screenings', <ScreeningsPage />);
    expect(await screen.findByText('Your screenings could not be retrieved')).toBeTruthy();
    expect(screen.queryByText(/^Offline copy from/)).toBeNull();
  });

  it('shows the list last seen, marked as the offline copy, filtered on the device', async () => {
    await keepingWithPin();
    fakeApi(routes());
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await waitFor(async () => expect((await keptScreenings())?.list.items).toHaveLength(7));
    expect(screen.queryByText(/^Offline copy from/)).toBeNull();
    cleanup();

    fakeApi(offlineRoutes);
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    const mark = await screen.findByText(/^Offline copy from/);
    expect(mark.getAttribute('role')).toBe('status');
    expect(mark.textContent).toMatch(/^Offline copy from .*20\d\d/);
    expect(mark.textContent).toContain('need an internet connection');
    cleanup();

    // The filters of the URL apply to the kept list as the server would apply them.
    renderAt('/screenings?result=5', <ScreeningsPage />);
    await findTable(1);
    expect(screen.getByText(/^Offline copy from/)).toBeTruthy();
  });

  it('says a document of the offline list is not available instead of fetching it', async () => {
    await keepingWithPin();
    fakeApi(routes());
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await waitFor(async () => expect(await keptScreenings()).not.toBeNull());
    cleanup();

    const requests = fakeApi(offlineRoutes);
    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await userEvent.click(within(bodyRows()[2]!).getByRole('rowheader'));
    const details = screen.getByRole('region', { name: /^Documents of the screening of/ });
    await waitFor(() => expect(within(details).getAllByText('This document is not available offline.')).toHaveLength(2));
    expect(within(details).queryByRole('button', { name: 'Show document' })).toBeNull();
    expect(requests.filter((request) => request.path.startsWith('/screening/'))).toEqual([]);
  });

  it("keeps no filtered answer, and never shows one patient's list to another", async () => {
    await keepingWithPin();
    fakeApi(routes());
    renderAt('/screenings?signed=true', <ScreeningsPage />);
    await findTable(5);
    cleanup();
    expect(await keptScreenings()).toBeNull();

    renderAt('/screenings', <ScreeningsPage />);
    await findTable(5);
    await waitFor(async () => expect(await keptScreenings()).not.toBeNull());
    cleanup();

    setSignedIn({ ...demoPatient, id: 2 });
    fakeApi(offlineRoutes);
    renderAt('/screenings', <ScreeningsPage />);
    expect(await screen.findByText('Your screenings could not be retrieved')).toBeTruthy();
    expect(screen.queryByRole('row')).toBeNull();
    expect(screen.queryByText(/^Offline copy from/)).toBeNull();
  });
});
