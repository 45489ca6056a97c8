import type { Db } from '../db';
import { auditOwnerOf, writeAudit, type AuditType } from '../lib/audit';
import { notFound } from '../lib/errors';
import type { RequestContext } from '../lib/principal';
import { findPatientScreening } from './screening-repo';

/**
 * "Whose screening is this": the one answer every area that serves a screening's parts (result,
 * documents, survey, disc image, orders) asks.
 */

/**
 * The refusal of DECISIONS.md 4: the same 404 for an object that is someone else's and for one
 * that does not exist, with the attempt written to the caller's own log.
 */
export async function refuse(db: Db, context: RequestContext, type: AuditType, description: string): Promise<never> {
  await writeAudit(db, { type, ip: context.ip, description, ...auditOwnerOf(context.caller) });
  throw notFound();
}

/**
 * The screening a call is about: a guest's one screening (an id, if given, must be it); for a
 * patient the id is required and must be one of hers.
 */
export async function ownedScreeningId(
  db: Db,
  context: RequestContext,
  requestedId: number | undefined,
  refusalType: AuditType,
): Promise<number> {
  const { caller } = context;
  if (caller.kind === 'guest') {
    if (requestedId !== undefined && requestedId !== caller.screeningId) {
      await refuse(db, context, refusalType, `screening ${requestedId}`);
    }
    return caller.screeningId;
  }
  if (requestedId === undefined) throw notFound();
  const screening = await findPatientScreening(db, caller.userId, requestedId);
  if (!screening) await refuse(db, context, refusalType, `screening ${requestedId}`);
  return requestedId;
}

/** Whether the caller may see this screening; for checks that refuse on their own terms. */
export async function isOwnedBy(db: Db, context: RequestContext, screeningId: number): Promise<boolean> {
  const { caller } = context;
  if (caller.kind === 'guest') return caller.screeningId === screeningId;
  return (await findPatientScreening(db, caller.userId, screeningId)) !== undefined;
}

/**
 * The account behind a patient-portal call (DECISIONS.md 4): a result-portal session is told
 * "not found" and the attempt lands in its own log.
 */
export async function patientIdOf(db: Db, context: RequestContext, refusal: AuditType, description: string): Promise<number> {
  if (context.caller.kind === 'guest') return refuse(db, context, refusal, description);
  return context.caller.userId;
}
