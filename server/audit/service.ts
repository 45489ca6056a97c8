import { AUDIT_PAGE_SIZE, auditTypesOf, type AuditPage, type AuditQuery, type BrowserDetails } from '../../common/audit';
import type { Principal } from '../auth/session';
import type { Db } from '../db';
import type { AuditOwner } from '../lib/audit';
import { countAuditEntries, findAuditEntries, insertBrowserDetails, type AuditFilter } from './repo';

/**
 * The days of the date filter are the provider's days: a patient in Poland choosing 1 March
 * means from midnight in Warsaw, not in UTC (DECISIONS.md 11 stores times in UTC).
 */
export const AUDIT_DAY_TIME_ZONE = 'Europe/Warsaw';

/** A patient reads her account's log; a result-portal session the guest entries of its screening. */
export function auditOwnerOf(caller: Principal): AuditOwner {
  return caller.kind === 'patient' ? { userId: caller.userId } : { screeningId: caller.screeningId };
}

/** `GET /api/audit`: one page of the caller's own entries, newest first, and how many match. */
export async function auditPageFor(db: Db, caller: Principal, query: AuditQuery): Promise<AuditPage> {
  const filter: AuditFilter = {
    owner: auditOwnerOf(caller),
    fromDay: query.from,
    toDay: query.to,
    timeZone: AUDIT_DAY_TIME_ZONE,
    types: query.types ? auditTypesOf(query.types) : undefined,
    text: query.description || undefined,
  };
  const [items, total] = await Promise.all([
    findAuditEntries(db, filter, { limit: AUDIT_PAGE_SIZE, offset: (query.page - 1) * AUDIT_PAGE_SIZE }),
    countAuditEntries(db, filter),
  ]);
  return { items, total };
}

/** `POST /api/audit/browser`: what the caller's browser reported, stored against her log's owner. */
export function recordBrowserDetails(db: Db, caller: Principal, details: BrowserDetails): Promise<void> {
  return insertBrowserDetails(db, auditOwnerOf(caller), details);
}
