import { CalendarDate, parseDate } from '@internationalized/date';
import {
  AUDIT_FILTER_GROUPS,
  AUDIT_TYPES,
  AUDIT_TYPES_SEPARATOR,
  isCalendarDay,
  type AuditDescriptionClause,
  type AuditFilterGroup,
  type AuditIpCondition,
  type AuditType,
} from '@common/audit';
import type { QueryValue } from '../../lib/api';
import type { AuditDescriptionTexts } from './audit-labels';

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

/**
 * `GET /api/audit` query: the chosen end plus one day, the groups joined with a percent sign, and
 * the description text with where it falls in the descriptions shown in the current language.
 */
export function apiQueryOf(filters: AuditFilters, descriptions: readonly AuditDescriptionTexts[]): Record<string, QueryValue> {
  const clauses = filters.description ? descriptionClausesOf(filters.description, descriptions) : [];
  return {
    page: filters.page,
    from: filters.from ?? undefined,
    to: filters.to ? nextDay(filters.to) : undefined,
    types: filters.groups.length ? filters.groups.join(AUDIT_TYPES_SEPARATOR) : undefined,
    description: filters.description || undefined,
    descriptionMatch: clauses.length ? JSON.stringify(clauses) : undefined,
  };
}

/** Case and runs of spaces do not count, as a reader of the page would not count them. */
function folded(text: string): string {
  return text.replace(/\s+/g, ' ').toLowerCase();
}

/** What `host(ip)` can hold (IPv4, IPv6): a piece with anything else is in no address. */
const IP_TEXT = /^[0-9a-f.:]+$/;

/**
 * The entries whose shown description (AuditDescriptionTexts: the type's name, the IP) contains
 * `text`, as clauses for the server, which knows each entry's type and IP but not the names. The
 * text anywhere inside the IP the server finds by itself (the `description` parameter); these
 * add the text within the words of a type, and the text across those words and the IP
 * ("IP 192.0", "upload, IP 10.1.2.3").
 */
export function descriptionClausesOf(text: string, descriptions: readonly AuditDescriptionTexts[]): AuditDescriptionClause[] {
  const wanted = folded(text.trim());
  if (!wanted) return [];
  // One clause per condition on the IP, with every type it holds for.
  const clauses = new Map<string, { ip?: AuditIpCondition; types: Set<AuditType> }>();
  const add = (type: AuditType, ip?: AuditIpCondition) => {
    const key = JSON.stringify(ip ?? null);
    const clause = clauses.get(key) ?? { ip, types: new Set() };
    clause.types.add(type);
    clauses.set(key, clause);
  };

  for (const description of descriptions) {
    const withoutIp = folded(description.withoutIp);
    const beforeIp = folded(description.beforeIp);
    const afterIp = folded(description.afterIp);
    const withNoIp = withoutIp.includes(wanted);
    const besideIp = beforeIp.includes(wanted) || afterIp.includes(wanted);
    if (withNoIp && besideIp) add(description.type);
    else if (besideIp) add(description.type, 'present');
    else if (withNoIp) add(description.type, 'absent');

    for (let split = 1; split < wanted.length; split++) {
      const head = wanted.slice(0, split);
      const rest = wanted.slice(split);
      if (beforeIp.endsWith(head)) {
        // From the words before the IP into it, and maybe through it into the words after.
        if (IP_TEXT.test(rest)) add(description.type, { startsWith: rest });
        for (let end = 1; end < rest.length; end++) {
          const ip = rest.slice(0, end);
          if (IP_TEXT.test(ip) && afterIp.startsWith(rest.slice(end))) add(description.type, { equals: ip });
        }
      }
      // From inside the IP into the words after it.
      if (IP_TEXT.test(head) && afterIp.startsWith(rest)) add(description.type, { endsWith: head });
    }
  }

  // A clause for every type needs no list of them.
  return [...clauses.values()].map(({ ip, types }) => ({
    ...(types.size < AUDIT_TYPES.length && { types: [...types] }),
    ...(ip && { ip }),
  }));
}

export type DayRange = { start: CalendarDate; end: CalendarDate };

export function dayRangeOf(filters: AuditFilters): DayRange | null {
  return filters.from && filters.to ? { start: parseDate(filters.from), end: parseDate(filters.to) } : null;
}
