import { isCalendarDay } from '@common/audit';
import type { ScreeningListQuery } from '@common/types/screenings';

/**
 * The screenings list as kept in its URL, so a reload or the back button shows the same rows:
 * `/screenings?page=2&from=2022-01-01&to=2022-12-31&signed=true&result=3&screeningId=42`.
 * Other parameters of the page (its tab) are left as they are.
 */
export type ResultChoice = NonNullable<ScreeningListQuery['result']>;
export type SignedChoice = NonNullable<ScreeningListQuery['signed']>;

export type ScreeningFilters = {
  /** Both days or neither, YYYY-MM-DD, inclusive. */
  from: string | null;
  to: string | null;
  signed: SignedChoice | null;
  result: ResultChoice | null;
  /** A positive integer, as typed. */
  screeningId: string | null;
};

export const NO_SCREENING_FILTERS: ScreeningFilters = { from: null, to: null, signed: null, result: null, screeningId: null };

/** In the order the filter offers them: the scale of spec section 3, then "no result yet". */
export const RESULT_CHOICES: readonly ResultChoice[] = ['1', '2', '3', '4', '5', '-1', 'none'];
const SIGNED_CHOICES: readonly SignedChoice[] = ['true', 'false'];

const FILTER_PARAMS = ['from', 'to', 'signed', 'result', 'screeningId'] as const;

export function isScreeningId(value: string): boolean {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647;
}

function oneOf<T extends string>(choices: readonly T[], value: string | null): T | null {
  return value !== null && (choices as readonly string[]).includes(value) ? (value as T) : null;
}

/** Anything unreadable in a hand-edited URL is simply no filter. */
export function filtersFromSearch(search: URLSearchParams): ScreeningFilters {
  const from = search.get('from');
  const to = search.get('to');
  const validRange = from && to && isCalendarDay(from) && isCalendarDay(to) && from <= to;
  const screeningId = search.get('screeningId')?.trim() ?? '';
  return {
    from: validRange ? from : null,
    to: validRange ? to : null,
    signed: oneOf(SIGNED_CHOICES, search.get('signed')),
    result: oneOf(RESULT_CHOICES, search.get('result')),
    screeningId: isScreeningId(screeningId) ? screeningId : null,
  };
}

export function pageFromSearch(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** `search` with these filters and page written over the ones it had (page 1 is left out). */
export function searchWith(search: URLSearchParams, filters: ScreeningFilters, page: number): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of FILTER_PARAMS) {
    const value = filters[name];
    if (value) next.set(name, value);
    else next.delete(name);
  }
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  return next;
}

export function activeFilterCount(filters: ScreeningFilters): number {
  return [filters.from, filters.signed, filters.result, filters.screeningId].filter(Boolean).length;
}

/** The browser's IANA time zone: "by day" means the patient's own calendar days. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** `GET /api/screenings` query (common/types/screenings.ts); absent filters are left out. */
export function apiQueryOf(filters: ScreeningFilters, timeZone: string): ScreeningListQuery {
  const query: ScreeningListQuery = {};
  if (filters.from && filters.to) Object.assign(query, { from: filters.from, to: filters.to, timeZone });
  if (filters.signed) query.signed = filters.signed;
  if (filters.result) query.result = filters.result;
  if (filters.screeningId) query.screeningId = filters.screeningId;
  return query;
}
