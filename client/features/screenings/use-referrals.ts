import type { ReferralListResponse } from '@common/types/screenings';
import { useApiGet, type ApiGet } from '../../lib/use-api-get';

export type DayRangeQuery = { from: string; to: string; timeZone: string } | null;

/** `GET /api/screenings/referrals`, optionally limited to the days of `range` (inclusive). */
export function useReferrals(range: DayRangeQuery): ApiGet<ReferralListResponse> {
  return useApiGet<ReferralListResponse>('/screenings/referrals', range ?? {});
}
