import type { SessionUser } from '../../common/types/session';
import type { Db } from '../db';
import type { SessionPrincipal } from '../lib/principal';
import { findActivePatient } from './session-user-repo';

export type SessionUserDeps = { db: Db };

export function createSessionUserService({ db }: SessionUserDeps) {
  return {
    /**
     * The signed-in user as the client sees it. A guest has no account: only the screening its
     * access code opened. Undefined means the patient's account has gone or been disabled since login.
     */
    async sessionUser(principal: SessionPrincipal): Promise<SessionUser | undefined> {
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
    },
  };
}
