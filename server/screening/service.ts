import type { ScreeningInfo } from '../../common/types/session';
import type { Principal } from '../auth/session';
import type { Db } from '../db';
import { writeAudit, type AuditOwner } from '../lib/audit';
import { notFound } from '../lib/errors';
import { findLatestPatientScreening, findPatientScreening, findScreeningInfo } from './repo';

/**
 * `GET /api/screening`: a guest sees the one screening its code opened; a patient any of her own,
 * the latest when no id is given. Asking for anyone else's id is answered "not found" whether or
 * not it exists, and lands in the caller's own audit log (DECISIONS.md 4).
 */
export async function screeningInfoFor(
  db: Db,
  caller: Principal,
  requestedId: number | undefined,
  ip: string | undefined,
): Promise<ScreeningInfo> {
  let screening: ScreeningInfo | undefined;
  if (caller.kind === 'guest') {
    if (requestedId !== undefined && requestedId !== caller.screeningId) {
      await refuse(db, { screeningId: caller.screeningId }, requestedId, ip);
    }
    screening = await findScreeningInfo(db, caller.screeningId);
  } else if (requestedId === undefined) {
    screening = await findLatestPatientScreening(db, caller.userId);
  } else {
    screening = await findPatientScreening(db, caller.userId, requestedId);
    if (!screening) await refuse(db, { userId: caller.userId }, requestedId, ip);
  }
  if (!screening) throw notFound();
  return screening;
}

async function refuse(db: Db, owner: AuditOwner, requestedId: number, ip: string | undefined): Promise<never> {
  await writeAudit(db, { type: 'SCREENING_UNAUTHORIZED', ip, description: `screening ${requestedId}`, ...owner });
  throw notFound();
}
