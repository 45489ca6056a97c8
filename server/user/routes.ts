import { Router } from 'express';
import { callerOf, patientOf, requirePatient, requireSession } from '../auth/gates';
import { endSession } from '../auth/session';
import { patientReadWithSession } from '../auth/session-store';
import { unauthenticated } from '../lib/errors';
import { parseInput } from '../lib/parse';
import { createSessionUserService, type SessionUserDeps } from '../auth/session-user';
import { createNoticePreferencesService, noticePreferencesSchema } from './notices';

/**
 * `/api/user`: the profile stays open to a patient who must still change the password (spec
 * section 6); her notice choices do not (the gate answers 403 PASSWORD_CHANGE_REQUIRED).
 */
export function userRouter(deps: SessionUserDeps): Router {
  const users = createSessionUserService(deps);
  const notices = createNoticePreferencesService(deps);
  const router = Router();

  router.get('/profile', requireSession, async (req, res) => {
    // Usually read together with the session row already (session-store.ts): no second query.
    const user = patientReadWithSession(req) ?? (await users.sessionUser(callerOf(req)));
    if (!user) {
      await endSession(req);
      throw unauthenticated();
    }
    res.json(user);
  });

  // Whether she is told when a result is ready (server/notices). A guest has no account: 404.
  router.get('/notices', requirePatient, async (req, res) => {
    res.json(await notices.read(patientOf(req).userId));
  });

  router.patch('/notices', requirePatient, async (req, res) => {
    const preferences = parseInput(noticePreferencesSchema, req.body);
    res.json(await notices.update(patientOf(req).userId, preferences));
  });

  return router;
}
