import { Router, type Request } from 'express';
import { portalLoginSchema, resultLoginSchema } from '../../common/validation/auth';
import type { LoginResponse } from '../../common/types/session';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { unauthenticated } from '../lib/errors';
import { parseInput } from '../lib/validate';
import { sessionUserOf } from '../user/service';
import type { AuthService } from './service';
import { ensureAnonymousSession, renewSession, type Principal } from './session';

/** `/api/auth` (docs/api.md). CSRF is checked before these handlers, login included. */
export function authRouter({ db, auth, clock }: { db: Db; auth: AuthService; clock: Clock }): Router {
  const router = Router();

  router.get('/csrf', (req, res) => {
    res.json({ csrfToken: ensureAnonymousSession(req, clock) });
  });

  router.post('/login', async (req, res) => {
    const input = parseInput(resultLoginSchema, req.body);
    const principal = await auth.loginWithAccessCode(input, req.ip);
    res.json(await signIn(req, principal));
  });

  router.post('/portal/login', async (req, res) => {
    const input = parseInput(portalLoginSchema, req.body);
    const principal = await auth.loginWithPassword(input, req.ip);
    res.json(await signIn(req, principal));
  });

  // A GET because the client contract says so (spec section 7); csrf.ts checks its token anyway.
  router.get('/logout', async (req, res) => {
    res.json({ csrfToken: await renewSession(req, clock, null) });
  });

  async function signIn(req: Request, principal: Principal): Promise<LoginResponse> {
    const csrfToken = await renewSession(req, clock, principal);
    const user = await sessionUserOf(db, principal);
    // Only if the account was disabled between the password check and here.
    if (!user) throw unauthenticated();
    return { user, csrfToken };
  }

  return router;
}
