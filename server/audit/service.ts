import { AUDIT_PAGE_SIZE, auditTypesOf, type AuditPage, type AuditQuery, type BrowserDetails } from '../../common/audit';
import type { Db } from '../db';
import { auditOwnerOf } from '../lib/audit';
import type { SessionPrincipal } from '../lib/principal';
import { countAuditEntries, findAuditEntries, insertBrowserDetails, type AuditFilter } from './repo';

/**
 * The days of the date filter are the provider's days: a patient in Poland choosing 1 March
 * means from midnight in Warsaw, not in UTC (DECISIONS.md 11 stores times in UTC).
 */
const AUDIT_DAY_TIME_ZONE = 'Europe/Warsaw';

export type AuditDeps = { db: Db };

export function createAuditService({ db }: AuditDeps) {
  return {
    page: (caller: SessionPrincipal, query: AuditQuery) => auditPageFor(db, caller, query),
    recordBrowserDetails: (caller: SessionPrincipal, details: BrowserDetails) => insertBrowserDetails(db, auditOwnerOf(caller), details),
  };
}

/**
 * `GET /api/audit`: one page of the caller's own entries, newest first, and how many match. A
 * patient reads her account's log; a result-portal session the guest entries of its screening.
 */
async function auditPageFor(db: Db, caller: SessionPrincipal, query: AuditQuery): Promise<AuditPage> {
  const filter: AuditFilter = {
    owner: auditOwnerOf(caller),
    fromDay: query.from,
    toDay: query.to,
    timeZone: AUDIT_DAY_TIME_ZONE,
    types: query.types ? auditTypesOf(query.types) : undefined,
    description: query.description || query.descriptionMatch ? { text: query.description, clauses: query.descriptionMatch } : undefined,
  };
  const [items, total] = await Promise.all([
    findAuditEntries(db, filter, { limit: AUDIT_PAGE_SIZE, offset: (query.page - 1) * AUDIT_PAGE_SIZE }),
    countAuditEntries(db, filter),
  ]);
  return { items, total };
}
