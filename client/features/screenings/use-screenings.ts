import type { ScreeningListResponse } from '@common/types/screenings';
import { useKeptList, type KeptListGet } from '../../documents/use-kept-list';
import { screeningsAsQueried } from './offline-answers';
import { apiQueryOf, browserTimeZone, type ScreeningFilters } from './screening-filters';

/**
 * `GET /api/screenings` with the filters (the server filters; the page only pages through). The
 * last list that arrived stays on screen while the next one loads. Offline, the whole list last
 * seen on this device is shown, filtered here (`offlineSavedAt` says from when).
 */
export function useScreenings(filters: ScreeningFilters): KeptListGet<ScreeningListResponse> {
  return useKeptList('screenings', '/screenings', apiQueryOf(filters, browserTimeZone()), screeningsAsQueried);
}
