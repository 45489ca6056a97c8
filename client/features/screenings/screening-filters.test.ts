import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  apiQueryOf,
  filtersFromSearch,
  NO_SCREENING_FILTERS,
  pageFromSearch,
  searchWith,
  type ScreeningFilters,
} from './screening-filters';

const ALL: ScreeningFilters = { from: '2022-01-01', to: '2022-12-31', signed: 'true', result: '-1', screeningId: '42' };

describe('screening filters in the URL', () => {
  it('reads back what it wrote, keeping the page tab and leaving page 1 out', () => {
    const search = searchWith(new URLSearchParams('tab=screenings'), ALL, 2);
    expect(search.get('tab')).toBe('screenings');
    expect(filtersFromSearch(search)).toEqual(ALL);
    expect(pageFromSearch(search)).toBe(2);
    expect(searchWith(search, NO_SCREENING_FILTERS, 1).toString()).toBe('tab=screenings');
  });

  it('drops what a hand-edited URL gets wrong instead of failing', () => {
    const search = new URLSearchParams('from=2022-02-30&to=2022-03-01&signed=maybe&result=7&screeningId=-3&page=0');
    expect(filtersFromSearch(search)).toEqual(NO_SCREENING_FILTERS);
    expect(pageFromSearch(search)).toBe(1);
  });

  it('takes a range only with both days in order', () => {
    expect(filtersFromSearch(new URLSearchParams('from=2022-05-01')).from).toBeNull();
    expect(filtersFromSearch(new URLSearchParams('from=2022-05-02&to=2022-05-01')).from).toBeNull();
  });

  it('accepts every result of the scale and "none"', () => {
    for (const result of ['1', '2', '3', '4', '5', '-1', 'none']) {
      expect(filtersFromSearch(new URLSearchParams({ result })).result).toBe(result);
    }
  });

  it('counts the date range as one filter', () => {
    expect(activeFilterCount(ALL)).toBe(4);
    expect(activeFilterCount(NO_SCREENING_FILTERS)).toBe(0);
  });
});

describe('apiQueryOf', () => {
  it('sends the range with the browser time zone, and only the filters that are set', () => {
    expect(apiQueryOf(ALL, 'Europe/Warsaw')).toEqual({
      from: '2022-01-01',
      to: '2022-12-31',
      timeZone: 'Europe/Warsaw',
      signed: 'true',
      result: '-1',
      screeningId: '42',
    });
    expect(apiQueryOf({ ...NO_SCREENING_FILTERS, signed: 'false' }, 'America/New_York')).toEqual({ signed: 'false' });
  });
});
