import type { AuditType } from '../../common/audit';
import type { Db } from '../db';
import type { SessionPrincipal } from './principal';

/** Rows of `audit_types` (spec section 9, listed in common/audit.ts); the table's foreign key refuses anything else. */
export type { AuditType };

export type AuditEntry = {
  type: AuditType;
  /** `req.ip`, already resolved through `trust proxy`. */
  ip: string | undefined;
  /** Never typed credentials or free text from the request: the owner reads this in their log. */
  description?: string;
  /** Owner of the entry: the patient account ... */
  userId?: number;
  /** ... or, for a result-portal session, its screening. */
  screeningId?: number;
};

/**
 * The one audit writer (DECISIONS.md 11). It only ever inserts; the table's trigger refuses
 * updates and deletes.
 */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db('audit_entries').insert({
    type: entry.type,
    ip: entry.ip ?? null,
    description: entry.description ?? null,
    user_id: entry.userId ?? null,
    screening_id: entry.screeningId ?? null,
  });
}

/** Whose log an entry belongs to: the patient's account, or a guest session's screening. */
export type AuditOwner = { userId: number } | { screeningId: number };

/** Whose log a session caller's entries belong to: a patient's account, or a guest session's screening. */
export function auditOwnerOf(caller: SessionPrincipal): AuditOwner {
  return caller.kind === 'guest' ? { screeningId: caller.screeningId } : { userId: caller.userId };
}
