import type { Knex } from 'knex';
import type { AuditDescriptionClause, AuditIpCondition, AuditItem, AuditType, BrowserDetails } from '../../common/audit';
import type { Db } from '../db';
import type { AuditOwner } from '../lib/audit';

export type AuditFilter = {
  owner: AuditOwner;
  /** Inclusive start and exclusive end, as calendar days of `timeZone`. */
  fromDay?: string;
  toDay?: string;
  timeZone: string;
  /** Empty or absent: every type. */
  types?: readonly AuditType[];
  /**
   * The description filter, on what the page shows as the description (the type's name and the
   * IP): `text` anywhere in the IP address, or any of `clauses`, the browser's reading of the text
   * against the names. The stored technical note is not shown, so it is not searched.
   */
  description?: { text?: string; clauses?: readonly AuditDescriptionClause[] };
};

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function whereIp(query: Knex.QueryBuilder, condition: AuditIpCondition): Knex.QueryBuilder {
  if (condition === 'present') return query.whereNotNull('ip');
  if (condition === 'absent') return query.whereNull('ip');
  const pattern =
    'startsWith' in condition
      ? `${likeLiteral(condition.startsWith)}%`
      : 'endsWith' in condition
        ? `%${likeLiteral(condition.endsWith)}`
        : likeLiteral(condition.equals);
  return query.whereRaw('host(ip) ILIKE ?', [pattern]);
}

function whereDescription(query: Knex.QueryBuilder, { text, clauses = [] }: NonNullable<AuditFilter['description']>): Knex.QueryBuilder {
  return query.where((description) => {
    if (text) description.orWhereRaw('host(ip) ILIKE ?', [`%${likeLiteral(text)}%`]);
    for (const { types, ip } of clauses) {
      // A clause without conditions (text found in every type's name) matches every entry.
      if (!types && !ip) description.orWhereRaw('true');
      else
        description.orWhere((clause) => {
          if (types) clause.whereIn('type', types);
          if (ip) whereIp(clause, ip);
        });
    }
  });
}

/**
 * Whose entries: a patient's by account; a guest's are those of her screening written while no
 * account was signed in (the partial index `audit_entries_screening_idx` covers exactly these).
 */
function ownedBy(query: Knex.QueryBuilder, owner: AuditOwner): Knex.QueryBuilder {
  return 'userId' in owner ? query.where('user_id', owner.userId) : query.where('screening_id', owner.screeningId).whereNull('user_id');
}

function filtered(db: Db, filter: AuditFilter): Knex.QueryBuilder {
  const query = ownedBy(db('audit_entries'), filter.owner);
  // A day starts at midnight in the provider's zone, whatever the session's TimeZone setting is.
  if (filter.fromDay) query.whereRaw('created_at >= (?::date)::timestamp AT TIME ZONE ?', [filter.fromDay, filter.timeZone]);
  if (filter.toDay) query.whereRaw('created_at < (?::date)::timestamp AT TIME ZONE ?', [filter.toDay, filter.timeZone]);
  if (filter.types?.length) query.whereIn('type', filter.types);
  if (filter.description) whereDescription(query, filter.description);
  return query;
}

export async function countAuditEntries(db: Db, filter: AuditFilter): Promise<number> {
  const [row] = await filtered(db, filter).count<{ count: number }[]>({ count: '*' });
  return Number(row?.count ?? 0);
}

export async function findAuditEntries(db: Db, filter: AuditFilter, page: { limit: number; offset: number }): Promise<AuditItem[]> {
  const rows: { created_at: Date; type: AuditType; ip: string | null; description: string | null }[] = await filtered(db, filter)
    .select('created_at', 'type', db.raw('host(ip) AS ip'), 'description')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({ createdAt: row.created_at.toISOString(), type: row.type, ip: row.ip, description: row.description }));
}

export async function insertBrowserDetails(db: Db, owner: AuditOwner, details: BrowserDetails): Promise<void> {
  await db('browser_details').insert({
    user_id: 'userId' in owner ? owner.userId : null,
    screening_id: 'screeningId' in owner ? owner.screeningId : null,
    browser_name: details.browserName,
    browser_version: details.browserVersion,
    os: details.os,
    resolution_x: details.resolutionX,
    resolution_y: details.resolutionY,
  });
}
