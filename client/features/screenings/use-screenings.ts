import type { ScreeningListResponse } from '@common/types/screenings';
import { useApiGet, type ApiGet } from '../../lib/use-api-get';
import { apiQueryOf, browserTimeZone, type ScreeningFilters } from './screening-filters';

/**
 * `GET /api/screenings` with the filters (the server filters; the page only pages through). The
 * last list that arrived stays on screen while the next one loads.
 */
export function useScreenings(filters: ScreeningFilters): ApiGet<ScreeningListResponse> {
  return useApiGet<ScreeningListResponse>('/screenings', apiQueryOf(filters, browserTimeZone()));
}
