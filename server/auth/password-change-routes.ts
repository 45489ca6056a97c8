import { Router } from 'express';
import type { LoginResponse } from '../../common/types/session';
import { passwordChangeSchema } from '../../common/validation/password';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { notFound, unauthenticated } from '../lib/errors';
import { parseInput } from '../lib/validate';
import { sessionUserOf } from '../user/service';
import { callerOf } from './gates';
import type { PasswordChangeService } from './password-change';
import { renewSession, type Principal } from './session';
import { endSessionsOfUser } from './user-sessions-repo';

/** `PATCH /api/auth/password` (docs/api.md): open to a patient held by requirePasswordChange. */
export function passwordChangeRouter({ db, passwords, clock }: { db: Db; passwords: PasswordChangeService; clock: Clock }): Router {
  const router = Router();

  router.patch('/password', async (req, res) => {
    const caller = callerOf(req);
    if (caller.kind === 'guest') {
      await passwords.refuseGuest(caller.screeningId, req.ip);
      throw notFound();
    }
    const input = parseInput(passwordChangeSchema, req.body);
    await passwords.changePassword(caller.userId, input, req.ip);

    // A new id for this session, released from the change requirement; every other session of
    // hers ends, so whoever else held one must sign in with the new password.
    const principal: Principal = { kind: 'patient', userId: caller.userId, requirePasswordChange: false };
    const csrfToken = await renewSession(req, clock, principal);
    await endSessionsOfUser(db, caller.userId, req.sessionID);

    const user = await sessionUserOf(db, principal);
    if (!user) throw unauthenticated();
    const body: LoginResponse = { user, csrfToken };
    res.json(body);
  });

  return router;
}
