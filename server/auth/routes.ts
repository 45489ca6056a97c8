import { Router, type Request, type Response } from 'express';
import { portalLoginSchema, resultLoginSchema } from '../../common/validation/auth';
import type { LoginResponse, SessionAnswer } from '../../common/types/session';
import { unauthenticated } from '../lib/errors';
import { parseInput } from '../lib/parse';
import { cookieValue } from '../lib/cookies';
import { createSessionUserService } from './session-user';
import { createAuthService, type AuthDeps, type SignedIn } from './service';
import { DEVICE_COOKIE, deviceCookieOptions } from './device-cookie';
import type { AnonymousCsrf } from './anonymous-csrf';
import { endSession, principalOf, renewSession } from './session';
import { patientReadWithSession, SESSION_COOKIE } from './session-store';

/**
 * `/api/auth` (docs/api.md). CSRF is checked before these handlers, login included, with the same
 * `anonymousCsrf` that issues a visitor's token here.
 */
export function authRouter(deps: AuthDeps, anonymousCsrf: AnonymousCsrf): Router {
  const { clock } = deps;
  const auth = createAuthService(deps);
  const users = createSessionUserService(deps);
  const deviceCookieAttributes = deviceCookieOptions(deps.config);
  const router = Router();

  // A signed-in browser gets its session's token; a visitor one tied to a cookie, nothing stored.
  router.get('/csrf', (req, res) => {
    res.json({ csrfToken: req.session.csrfToken ?? anonymousCsrf.issue(req, res) });
  });

  router.post('/login', async (req, res) => {
    const input = parseInput(resultLoginSchema, req.body);
    const signedIn = await auth.loginWithAccessCode(input, req.ip, cookieValue(req, DEVICE_COOKIE));
    res.json(await signIn(req, res, signedIn));
  });

  router.post('/portal/login', async (req, res) => {
    const input = parseInput(portalLoginSchema, req.body);
    const signedIn = await auth.loginWithPassword(input, req.ip, cookieValue(req, DEVICE_COOKIE));
    res.json(await signIn(req, res, signedIn));
  });

  // Who this browser is signed in as, or null: the client's start-up question. Unlike
  // /api/user/profile it answers 200 to a visitor, so an anonymous page load has no failed request.
  router.get('/session', async (req, res) => {
    const principal = principalOf(req);
    // Usually read together with the session row already (session-store.ts): no second query.
    const user = principal ? (patientReadWithSession(req) ?? (await users.sessionUser(principal))) : null;
    if (principal && !user) await endSession(req);
    res.json({ user: user ?? null } satisfies SessionAnswer);
  });

  // A GET because the client contract says so (spec section 7); csrf.ts checks its token anyway.
  // The session row goes; the browser carries on as a visitor, with a visitor's token.
  router.get('/logout', async (req, res) => {
    await endSession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ csrfToken: anonymousCsrf.issue(req, res) });
  });

  async function signIn(req: Request, res: Response, { principal, deviceCookie }: SignedIn): Promise<LoginResponse> {
    const csrfToken = await renewSession(req, clock, principal);
    const user = await users.sessionUser(principal);
    // Only if the account was disabled between the password check and here.
    if (!user) throw unauthenticated();
    // Kept across logouts: it marks the browser, not the session (device-cookie.ts).
    res.cookie(DEVICE_COOKIE, deviceCookie, deviceCookieAttributes);
    return { user, csrfToken };
  }

  return router;
}
