// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScreeningListItem } from '@common/types/screenings';
import { renderAt, startEnglish } from '../../testing/session';
import { ScreeningsTable } from './ScreeningsTable';

const ITEMS: ScreeningListItem[] = [
  {
    screening: {
      id: 7,
      createdAt: '2024-06-10T08:30:00Z',
      screeningDescriptionsStatus: 'desc_in_progress',
      absorbedDose: 4.12,
      result: null,
      signed: false,
      signedAt: null,
    },
    documents: [],
    hasFacilitiesList: false,
    orders: [{ id: 31, done: false, payment: { id: 4, status: 'PENDING' }, shipmentStatus: 'awaiting', productCode: 'images_copy' }],
  },
];

beforeAll(startEnglish);
afterEach(cleanup);

async function renderTable() {
  renderAt('/screenings', <ScreeningsTable items={ITEMS} busy={false} selectedId={null} onSelect={() => undefined} emptyText="None" />);
  await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
  return screen.getAllByRole('row')[1]!;
}

describe('ScreeningsTable', () => {
  it('names every value of a row by its column, for the card a narrow screen draws of it', async () => {
    const row = await renderTable();
    const columns = screen.getAllByRole('columnheader').map((header) => header.textContent);
    const cells = within(row).getAllByRole('gridcell');
    expect(cells.map((cell) => cell.dataset.label)).toEqual(columns.slice(1));
    // The date heads the card: its own cell names no column.
    expect(within(row).getByRole('rowheader').dataset.label).toBeUndefined();
  });

  it('shows every value of the row: status, result, ID, order, payment, shipment and dose', async () => {
    const row = await renderTable();
    const cells = within(row).getAllByRole('gridcell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'During description – the description will be ready within at most 15 business days',
      '—',
      '7',
      'Order a copyAvailable when the current order is completed',
      'Pending',
      'Awaiting preparation',
      '4.12 mGy Check',
    ]);
    expect(within(row).getByRole('rowheader').textContent).toMatch(/Jun 10, 2024/);
  });
});
