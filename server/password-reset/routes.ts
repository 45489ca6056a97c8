import { Router } from 'express';
import { newPasswordSchema, resetRequestSchema } from '../../common/validation/password-reset';
import { refuseCommonPassword } from '../auth/password-deny-list';
import { endSession, principalOf } from '../auth/session';
import { fieldsOf, parseInput } from '../lib/parse';
import { createPasswordResetService, type PasswordResetDeps } from './service';

/**
 * Forgot password (docs/api.md): `/api/auth/password/reset` and `/api/auth/password/token`.
 * Public; CSRF is checked in front like for every state-changing call.
 */
export function passwordResetRouter(deps: PasswordResetDeps): Router {
  const resets = createPasswordResetService(deps);
  const router = Router();

  router.post('/password/reset', async (req, res) => {
    const request = parseInput(resetRequestSchema, req.body);
    await resets.requestReset(request, req.ip);
    res.json({});
  });

  router.post('/password/token', async (req, res) => {
    await resets.verifyToken(fieldsOf(req.body).token);
    res.json({});
  });

  router.patch('/password/token', async (req, res) => {
    const body = fieldsOf(req.body);
    const readPassword = async () => {
      const input = parseInput(newPasswordSchema, body);
      await refuseCommonPassword(input.password, 'password');
      return input;
    };
    const { userId } = await resets.setPassword(body.token, readPassword, req.ip);
    // Its row is gone with every other session of the user; destroying it here as well keeps
    // express-session from writing it back at the end of this request.
    const principal = principalOf(req);
    if (principal?.kind === 'patient' && principal.userId === userId) await endSession(req);
    res.json({});
  });

  return router;
}
