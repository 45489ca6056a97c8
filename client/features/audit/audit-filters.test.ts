import { describe, expect, it } from 'vitest';
import { apiQueryOf, filtersFromSearch, nextDay, NO_FILTERS, searchOfFilters } from './audit-filters';

describe('audit filters in the URL', () => {
  it('read back what they wrote', () => {
    const filters = {
      page: 3,
      from: '2024-03-10',
      to: '2024-03-15',
      groups: ['SCREENING' as const, 'LOGIN_PORTAL' as const],
      description: '192.0',
    };
    const search = searchOfFilters(filters);
    expect(search.toString()).toBe('page=3&from=2024-03-10&to=2024-03-15&types=SCREENING%2CLOGIN_PORTAL&description=192.0');
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it('leave out what is not filtered, so the bare page has a bare URL', () => {
    expect(searchOfFilters(NO_FILTERS).toString()).toBe('');
  });

  it('read anything broken in a hand-edited URL as no filter', () => {
    const search = new URLSearchParams('page=-2&from=2024-02-30&to=2024-03-01&types=LOGIN_PORTAL,NOPE,SCREENING,LOGIN_PORTAL');
    expect(filtersFromSearch(search)).toEqual({ ...NO_FILTERS, groups: ['SCREENING', 'LOGIN_PORTAL'] });
    expect(filtersFromSearch(new URLSearchParams('from=2024-03-10'))).toEqual(NO_FILTERS);
    expect(filtersFromSearch(new URLSearchParams('from=2024-03-10&to=2024-03-01'))).toEqual(NO_FILTERS);
  });
});

describe('the API query', () => {
  it('sends the chosen end plus one day and the groups joined with a percent sign', () => {
    expect(apiQueryOf({ page: 2, from: '2024-02-20', to: '2024-02-29', groups: ['ISO', 'ISO_GENERATE'], description: 'x' })).toEqual({
      page: 2,
      from: '2024-02-20',
      to: '2024-03-01',
      types: 'ISO%ISO_GENERATE',
      description: 'x',
    });
    expect(apiQueryOf(NO_FILTERS)).toEqual({ page: 1, from: undefined, to: undefined, types: undefined, description: undefined });
  });

  it('counts days across months and years', () => {
    expect(nextDay('2024-12-31')).toBe('2025-01-01');
    expect(nextDay('2023-02-28')).toBe('2023-03-01');
  });
});
