import { Router } from 'express';
import { callerOf, requireSession } from '../auth/gates';
import { endSession } from '../auth/session';
import { unauthenticated } from '../lib/errors';
import { createSessionUserService, type SessionUserDeps } from '../auth/session-user';

/** `/api/user`: open to a patient who must still change the password (spec section 6). */
export function userRouter(deps: SessionUserDeps): Router {
  const users = createSessionUserService(deps);
  const router = Router();

  router.get('/profile', requireSession, async (req, res) => {
    const user = await users.sessionUser(callerOf(req));
    if (!user) {
      await endSession(req);
      throw unauthenticated();
    }
    res.json(user);
  });

  return router;
}
