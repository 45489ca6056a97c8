import { Router } from 'express';
import { callerOf, requireSession } from '../auth/gates';
import { endSession } from '../auth/session';
import type { Db } from '../db';
import { unauthenticated } from '../lib/errors';
import { sessionUserOf } from './service';

/** `/api/user`: open to a patient who must still change the password (spec section 6). */
export function userRouter(db: Db): Router {
  const router = Router();

  router.get('/profile', requireSession, async (req, res) => {
    const user = await sessionUserOf(db, callerOf(req));
    if (!user) {
      await endSession(req);
      throw unauthenticated();
    }
    res.json(user);
  });

  return router;
}
