import { Router, type Request } from 'express';
import { portalLoginSchema, resultLoginSchema } from '../../common/validation/auth';
import type { LoginResponse, SessionAnswer } from '../../common/types/session';
import { unauthenticated } from '../lib/errors';
import { parseInput } from '../lib/parse';
import type { SessionPrincipal } from '../lib/principal';
import { createSessionUserService } from './session-user';
import { createAuthService, type AuthDeps } from './service';
import { endSession, ensureAnonymousSession, principalOf, renewSession } from './session';

/** `/api/auth` (docs/api.md). CSRF is checked before these handlers, login included. */
export function authRouter(deps: AuthDeps): Router {
  const { clock } = deps;
  const auth = createAuthService(deps);
  const users = createSessionUserService(deps);
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

  // Who this browser is signed in as, or null: the client's start-up question. Unlike
  // /api/user/profile it answers 200 to a visitor, so an anonymous page load has no failed request.
  router.get('/session', async (req, res) => {
    const principal = principalOf(req);
    const user = principal ? await users.sessionUser(principal) : null;
    if (principal && !user) await endSession(req);
    res.json({ user: user ?? null } satisfies SessionAnswer);
  });

  // A GET because the client contract says so (spec section 7); csrf.ts checks its token anyway.
  router.get('/logout', async (req, res) => {
    res.json({ csrfToken: await renewSession(req, clock, null) });
  });

  async function signIn(req: Request, principal: SessionPrincipal): Promise<LoginResponse> {
    const csrfToken = await renewSession(req, clock, principal);
    const user = await users.sessionUser(principal);
    // Only if the account was disabled between the password check and here.
    if (!user) throw unauthenticated();
    return { user, csrfToken };
  }

  return router;
}
