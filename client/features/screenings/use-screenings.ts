import type { ScreeningListItem, ScreeningListResponse } from '@common/types/screenings';
import { useApiGet } from '../../lib/use-api-get';
import { apiQueryOf, browserTimeZone, type ScreeningFilters } from './screening-filters';

export type ScreeningsLoad = {
  /** The last list that arrived; kept on screen while the next one loads. */
  items: ScreeningListItem[] | null;
  loading: boolean;
  failed: boolean;
  retry: () => void;
};

/** `GET /api/screenings` with the filters (the server filters; the page only pages through). */
export function useScreenings(filters: ScreeningFilters): ScreeningsLoad {
  const load = useApiGet<ScreeningListResponse>('/screenings', apiQueryOf(filters, browserTimeZone()));
  return { items: load.data?.items ?? null, loading: load.loading, failed: load.failed, retry: load.reload };
}
