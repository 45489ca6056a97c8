import type { ReferralListResponse, ScreeningListQuery, ScreeningListResponse } from '@common/types/screenings';

/** The server's zone when a query names none (server/screenings/list-query.ts). */
const SERVER_TIME_ZONE = 'Europe/Warsaw';

type DayRange = { from?: string; to?: string; timeZone?: string };

/** The calendar day (YYYY-MM-DD) of `instant` in `timeZone`. */
export function dayIn(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    new Date(instant),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Both ends inclusive, by the days of the query's zone, as the server compares them. */
function withinDays(instant: string, { from, to, timeZone = SERVER_TIME_ZONE }: DayRange): boolean {
  if (!from && !to) return true;
  const day = dayIn(instant, timeZone);
  return (!from || day >= from) && (!to || day <= to);
}

/**
 * Offline, the kept whole list narrowed by the filters as GET /api/screenings would have
 * (server/screenings/list-repo.ts): the list keeps the server's order.
 */
export function screeningsAsQueried(kept: ScreeningListResponse, query: ScreeningListQuery): ScreeningListResponse {
  const result = query.result === undefined ? undefined : query.result === 'none' ? null : Number(query.result);
  return {
    items: kept.items.filter(
      ({ screening }) =>
        withinDays(screening.createdAt, query) &&
        (query.signed === undefined || screening.signed === (query.signed === 'true')) &&
        (result === undefined || screening.result === result) &&
        (query.screeningId === undefined || screening.id === Number(query.screeningId)),
    ),
  };
}

/** Offline, the kept referrals within the days asked for, as GET /api/screenings/referrals would. */
export function referralsAsQueried(kept: ReferralListResponse, query: DayRange): ReferralListResponse {
  return { items: kept.items.filter((item) => withinDays(item.createdAt, query)) };
}
