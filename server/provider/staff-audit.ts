import type { RequestHandler, Response } from 'express';
import type { Db } from '../db';
import type { BackgroundTasks } from '../lib/background';
import type { ProviderPrincipal } from '../lib/principal';

/**
 * One row of the staff audit: who (the key, or the command line's user), what (the operation),
 * on which object (the portal's own id, never a name or PESEL), from where and how it ended.
 * Append-only: the table's trigger refuses updates and deletes.
 */
export type StaffAuditEntry = {
  apiKeyId: number | null;
  actor: string;
  action: string;
  objectType?: string;
  objectId?: string | number;
  ip: string | undefined;
  status: number;
};

export async function writeStaffAudit(db: Db, entry: StaffAuditEntry): Promise<void> {
  await db('staff_audit').insert({
    api_key_id: entry.apiKeyId,
    actor: entry.actor,
    action: entry.action,
    object_type: entry.objectType ?? null,
    object_id: entry.objectId === undefined ? null : String(entry.objectId),
    ip: entry.ip ?? null,
    status: entry.status,
  });
}

/** What a handler tells the audit about its call; the trail reads it when the answer is sent. */
type AuditNote = { action?: string; objectType?: string; objectId?: string | number };

export function noteStaffAction(res: Response, note: AuditNote): void {
  res.locals.staffAudit = { ...(res.locals.staffAudit as AuditNote | undefined), ...note };
}

/**
 * Audits every call of the provider chain once its answer is sent, refused ones included (an
 * unknown key, a missing scope, the rate limit). Written in the background so the audit never
 * delays the answer; `background` is settled when the app closes.
 */
export function staffAuditTrail(deps: { db: Db; background: BackgroundTasks }): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const caller = res.locals.provider as ProviderPrincipal | undefined;
      const note = (res.locals.staffAudit ?? {}) as AuditNote;
      const entry: StaffAuditEntry = {
        apiKeyId: caller?.apiKeyId ?? (res.locals.refusedApiKeyId as number | undefined) ?? null,
        actor: caller?.actor ?? 'unauthenticated',
        action: note.action ?? `${req.method} (unmatched)`,
        objectType: note.objectType,
        objectId: note.objectId,
        ip: req.ip,
        status: res.statusCode,
      };
      deps.background.run('staff-audit', () => writeStaffAudit(deps.db, entry));
    });
    next();
  };
}
