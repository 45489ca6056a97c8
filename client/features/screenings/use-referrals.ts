import type { ReferralListResponse } from '@common/types/screenings';
import { useKeptList, type KeptListGet } from '../../documents/use-kept-list';
import { referralsAsQueried } from './offline-answers';

export type DayRangeQuery = { from: string; to: string; timeZone: string } | null;

/**
 * `GET /api/screenings/referrals`, optionally limited to the days of `range` (inclusive). Offline,
 * the referrals last seen on this device are shown (`offlineSavedAt` says from when).
 */
export function useReferrals(range: DayRangeQuery): KeptListGet<ReferralListResponse> {
  return useKeptList('referrals', '/screenings/referrals', range ?? {}, referralsAsQueried);
}
