import type { ReferralListItem, ReferralListResponse } from '@common/types/screenings';
import { useApiGet } from '../../lib/use-api-get';

export type DayRangeQuery = { from: string; to: string; timeZone: string } | null;

export type ReferralsLoad = {
  items: ReferralListItem[] | null;
  loading: boolean;
  failed: boolean;
  /** Asks the server again, even for the same days. */
  reload: () => void;
};

/** `GET /api/screenings/referrals`, optionally limited to the days of `range` (inclusive). */
export function useReferrals(range: DayRangeQuery): ReferralsLoad {
  const load = useApiGet<ReferralListResponse>('/screenings/referrals', range ?? {});
  return { items: load.data?.items ?? null, loading: load.loading, failed: load.failed, reload: load.reload };
}
