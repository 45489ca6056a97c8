import type { SessionUser } from '../../common/types/session';
import type { Principal } from '../auth/session';
import type { Db } from '../db';
import { findActivePatient } from './repo';

/**
 * The signed-in user as the client sees it. A guest has no account: only the screening its
 * access code opened. Undefined means the patient's account has gone or been disabled since login.
 */
export async function sessionUserOf(db: Db, principal: Principal): Promise<SessionUser | undefined> {
  if (principal.kind === 'guest') {
    return {
      id: null,
      guest: true,
      email: null,
      personalDataId: null,
      requirePasswordChange: false,
      personalData: null,
      screeningId: principal.screeningId,
    };
  }
  return findActivePatient(db, principal.userId);
}
