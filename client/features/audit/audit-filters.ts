import { CalendarDate, parseDate } from '@internationalized/date';
import { AUDIT_FILTER_GROUPS, AUDIT_TYPES_SEPARATOR, isCalendarDay, type AuditFilterGroup } from '@common/audit';
import type { QueryValue } from '../../lib/api';

/**
 * What the audit page shows, as kept in its URL (so a reload or a shared link keeps it):
 * `?page=2&from=2024-03-10&to=2024-03-15&types=SCREENING,LOGIN_PORTAL&description=192.0`.
 * `to` here is the last chosen day itself; only the API call moves it to the next day.
 */
export type AuditFilters = {
  page: number;
  from: string | null;
  to: string | null;
  groups: AuditFilterGroup[];
  description: string;
};

export const NO_FILTERS: AuditFilters = { page: 1, from: null, to: null, groups: [], description: '' };

const URL_LIST_SEPARATOR = ',';

function isGroup(value: string): value is AuditFilterGroup {
  return (AUDIT_FILTER_GROUPS as readonly string[]).includes(value);
}

/** Anything unreadable in a hand-edited URL is simply no filter. */
export function filtersFromSearch(search: URLSearchParams): AuditFilters {
  const page = Number(search.get('page'));
  const from = search.get('from');
  const to = search.get('to');
  // The date picker chooses both ends or neither.
  const validRange = from && to && isCalendarDay(from) && isCalendarDay(to) && from <= to;
  const groups = (search.get('types') ?? '').split(URL_LIST_SEPARATOR).filter(isGroup);
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    from: validRange ? from : null,
    to: validRange ? to : null,
    // In the order the page offers them, each once.
    groups: AUDIT_FILTER_GROUPS.filter((group) => groups.includes(group)),
    description: search.get('description')?.trim() ?? '',
  };
}

export function searchOfFilters(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.page > 1) search.set('page', String(filters.page));
  if (filters.from) search.set('from', filters.from);
  if (filters.to) search.set('to', filters.to);
  if (filters.groups.length) search.set('types', filters.groups.join(URL_LIST_SEPARATOR));
  if (filters.description) search.set('description', filters.description);
  return search;
}

/** The day after, as the API's exclusive end wants it (spec section 7). */
export function nextDay(day: string): string {
  return parseDate(day).add({ days: 1 }).toString();
}

/** `GET /api/audit` query: the chosen end plus one day, the groups joined with a percent sign. */
export function apiQueryOf(filters: AuditFilters): Record<string, QueryValue> {
  return {
    page: filters.page,
    from: filters.from ?? undefined,
    to: filters.to ? nextDay(filters.to) : undefined,
    types: filters.groups.length ? filters.groups.join(AUDIT_TYPES_SEPARATOR) : undefined,
    description: filters.description || undefined,
  };
}

export type DayRange = { start: CalendarDate; end: CalendarDate };

export function dayRangeOf(filters: AuditFilters): DayRange | null {
  return filters.from && filters.to ? { start: parseDate(filters.from), end: parseDate(filters.to) } : null;
}
