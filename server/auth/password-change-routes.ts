import { Router } from 'express';
import type { LoginResponse } from '../../common/types/session';
import { passwordChangeSchema } from '../../common/validation/password';
import { notFound, unauthenticated } from '../lib/errors';
import { parseInput } from '../lib/parse';
import type { PatientPrincipal } from '../lib/principal';
import { createSessionUserService } from './session-user';
import { callerOf } from './gates';
import { createPasswordChangeService, type PasswordChangeDeps } from './password-change';
import { refuseCommonPassword } from './password-deny-list';
import { renewSession } from './session';
import { endSessionsOfUser } from './user-sessions-repo';

/** `PATCH /api/auth/password` (docs/api.md): open to a patient held by requirePasswordChange. */
export function passwordChangeRouter(deps: PasswordChangeDeps): Router {
  const { db, clock } = deps;
  const passwords = createPasswordChangeService(deps);
  const users = createSessionUserService(deps);
  const router = Router();

  router.patch('/password', async (req, res) => {
    const caller = callerOf(req);
    if (caller.kind === 'guest') {
      await passwords.refuseGuest(caller.screeningId, req.ip);
      throw notFound();
    }
    const input = parseInput(passwordChangeSchema, req.body);
    // The form judged the typed password; this catches a client that skipped it.
    await refuseCommonPassword(input.newPassword, 'newPassword');
    await passwords.changePassword(caller.userId, input, req.ip);

    // A new id for this session, released from the change requirement; every other session of
    // hers ends, so whoever else held one must sign in with the new password.
    const principal: PatientPrincipal = { kind: 'patient', userId: caller.userId, requirePasswordChange: false };
    const csrfToken = await renewSession(req, clock, principal);
    await endSessionsOfUser(db, caller.userId, req.sessionID);

    const user = await users.sessionUser(principal);
    if (!user) throw unauthenticated();
    const body: LoginResponse = { user, csrfToken };
    res.json(body);
  });

  return router;
}
