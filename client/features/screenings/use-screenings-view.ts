import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { filtersFromSearch, pageFromSearch, searchWith, type ScreeningFilters } from './screening-filters';

export type ScreeningsView = {
  filters: ScreeningFilters;
  page: number;
  /** New filters start again at page 1 and replace the history entry. */
  setFilters: (filters: ScreeningFilters) => void;
  /** Turning a page adds a history entry, so the back button turns it back. */
  setPage: (page: number) => void;
};

/** The filters and the page of the screenings list, kept in the URL query. */
export function useScreeningsView(): ScreeningsView {
  const searchText = useSearch();
  const [location, navigate] = useLocation();
  const search = useMemo(() => new URLSearchParams(searchText), [searchText]);
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const page = pageFromSearch(search);

  const go = useCallback(
    (next: URLSearchParams, replace: boolean) => {
      const query = next.toString();
      navigate(query ? `${location}?${query}` : location, { replace });
    },
    [location, navigate],
  );
  const setFilters = useCallback((next: ScreeningFilters) => go(searchWith(search, next, 1), true), [go, search]);
  const setPage = useCallback((next: number) => go(searchWith(search, filters, next), false), [go, search, filters]);
  return { filters, page, setFilters, setPage };
}
