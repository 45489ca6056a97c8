import type { Principal } from '../auth/session';
import type { Db } from '../db';
import { writeAudit, type AuditOwner, type AuditType } from '../lib/audit';
import { notFound } from '../lib/errors';
import { findPatientScreening } from '../screening/repo';

export type RequestContext = { db: Db; caller: Principal; ip: string | undefined };

/** Whose audit log an entry of this caller belongs to (the account, or a guest's screening). */
export function auditOwnerOf(caller: Principal): AuditOwner {
  return caller.kind === 'guest' ? { screeningId: caller.screeningId } : { userId: caller.userId };
}

/**
 * The refusal of DECISIONS.md 4: the same 404 for an object that is someone else's and for one
 * that does not exist, with the attempt written to the caller's own log.
 */
export async function refuse(context: RequestContext, type: AuditType, description: string): Promise<never> {
  await writeAudit(context.db, { type, ip: context.ip, description, ...auditOwnerOf(context.caller) });
  throw notFound();
}

/**
 * The screening a result-page call is about: a guest's one screening (an id, if given, must be
 * it); for a patient the id is required and must be one of hers.
 */
export async function ownedScreeningId(
  context: RequestContext,
  requestedId: number | undefined,
  refusalType: AuditType,
): Promise<number> {
  const { caller } = context;
  if (caller.kind === 'guest') {
    if (requestedId !== undefined && requestedId !== caller.screeningId) {
      await refuse(context, refusalType, `screening ${requestedId}`);
    }
    return caller.screeningId;
  }
  if (requestedId === undefined) throw notFound();
  const screening = await findPatientScreening(context.db, caller.userId, requestedId);
  if (!screening) await refuse(context, refusalType, `screening ${requestedId}`);
  return requestedId;
}
