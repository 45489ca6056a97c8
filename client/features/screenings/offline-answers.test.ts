import { describe, expect, it } from 'vitest';
import type { ReferralListItem, ScreeningListItem } from '@common/types/screenings';
import { dayIn, referralsAsQueried, screeningsAsQueried } from './offline-answers';

function item(id: number, createdAt: string, screening: Partial<ScreeningListItem['screening']> = {}): ScreeningListItem {
  return {
    screening: {
      id,
      createdAt,
      screeningDescriptionsStatus: 'desc_all_completed',
      absorbedDose: 1,
      result: 1,
      signed: true,
      signedAt: createdAt,
      ...screening,
    },
    documents: [],
    hasFacilitiesList: false,
    orders: [],
  };
}

const KEPT = {
  items: [
    // 23:30 UTC on 4 March is 5 March in Warsaw.
    item(3, '2024-03-04T23:30:00Z', { result: null, signed: false, signedAt: null }),
    item(2, '2023-06-01T08:00:00Z', { result: -1 }),
    item(1, '2022-01-10T08:00:00Z', { result: 4 }),
  ],
};
const ids = (answer: { items: ScreeningListItem[] }) => answer.items.map((entry) => entry.screening.id);

describe('the kept lists answered offline as the server would', () => {
  it('reads the day of an instant in the given zone', () => {
    expect(dayIn('2024-03-04T23:30:00Z', 'Europe/Warsaw')).toBe('2024-03-05');
    expect(dayIn('2024-03-04T23:30:00Z', 'UTC')).toBe('2024-03-04');
  });

  it('keeps the whole list, in its order, without filters', () => {
    expect(ids(screeningsAsQueried(KEPT, {}))).toEqual([3, 2, 1]);
  });

  it('filters the screenings by days of the zone, signature, result and id', () => {
    expect(ids(screeningsAsQueried(KEPT, { from: '2024-03-05', to: '2024-03-05', timeZone: 'Europe/Warsaw' }))).toEqual([3]);
    expect(ids(screeningsAsQueried(KEPT, { from: '2024-03-05', to: '2024-03-05', timeZone: 'UTC' }))).toEqual([]);
    expect(ids(screeningsAsQueried(KEPT, { from: '2022-01-10', to: '2023-06-01', timeZone: 'Europe/Warsaw' }))).toEqual([2, 1]);
    expect(ids(screeningsAsQueried(KEPT, { signed: 'false' }))).toEqual([3]);
    expect(ids(screeningsAsQueried(KEPT, { signed: 'true' }))).toEqual([2, 1]);
    expect(ids(screeningsAsQueried(KEPT, { result: 'none' }))).toEqual([3]);
    expect(ids(screeningsAsQueried(KEPT, { result: '-1' }))).toEqual([2]);
    expect(ids(screeningsAsQueried(KEPT, { screeningId: '1', result: '4' }))).toEqual([1]);
    expect(ids(screeningsAsQueried(KEPT, { screeningId: '1', result: '3' }))).toEqual([]);
  });

  it('filters the referrals by days of the zone', () => {
    const referrals: ReferralListItem[] = [
      { screeningId: 12, createdAt: '2024-03-04T23:30:00Z', documentId: 'r12', name: 'skierowanie.pdf' },
      { screeningId: 9, createdAt: '2022-03-08T07:55:00Z', documentId: 'r9', name: 'skierowanie.pdf' },
    ];
    const shown = (query: Parameters<typeof referralsAsQueried>[1]) =>
      referralsAsQueried({ items: referrals }, query).items.map((entry) => entry.screeningId);
    expect(shown({})).toEqual([12, 9]);
    expect(shown({ from: '2024-03-05', to: '2024-12-31', timeZone: 'Europe/Warsaw' })).toEqual([12]);
    expect(shown({ from: '2024-03-05', to: '2024-12-31', timeZone: 'UTC' })).toEqual([]);
  });
});
