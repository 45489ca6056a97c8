import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { filtersFromSearch, searchOfFilters, type AuditFilters } from './audit-filters';

export type ChangeFilters = (change: Partial<AuditFilters>) => void;

/**
 * The page's filters live in the URL query. Changing a filter goes back to page 1 and replaces
 * the history entry (typing should not fill the back button); turning a page adds one.
 */
export function useAuditFilters(): [AuditFilters, ChangeFilters] {
  const searchText = useSearch();
  const [location, navigate] = useLocation();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(searchText)), [searchText]);

  const change = useCallback<ChangeFilters>(
    (update) => {
      const next = { ...filters, page: 1, ...update };
      const query = searchOfFilters(next).toString();
      navigate(query ? `${location}?${query}` : location, { replace: update.page === undefined });
    },
    [filters, location, navigate],
  );
  return [filters, change];
}
