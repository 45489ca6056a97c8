import { Router, type Request } from 'express';
import { callerOf, requireSession } from '../auth/gates';
import type { Db } from '../db';
import { parseInput } from '../lib/validate';
import type { RequestContext } from '../result/ownership';
import { presentQuery, referralListQuerySchema, screeningListQuerySchema } from './query';
import { patientIdOf, referralListFor, screeningListFor } from './service';

/** `/api/screenings`: the patient's screenings list and referrals (docs/api.md, "Screenings list and referrals"). */
export function screeningsRouter(db: Db): Router {
  const router = Router();
  router.use(requireSession);
  const contextOf = (req: Request): RequestContext => ({ db, caller: callerOf(req), ip: req.ip });

  router.get('/', async (req, res) => {
    const context = contextOf(req);
    // Refused before the query is read: a guest learns nothing from a validation answer either.
    const userId = await patientIdOf(context, 'SCREENING_UNAUTHORIZED', 'screenings list');
    const filter = parseInput(screeningListQuerySchema, presentQuery(req));
    res.json(await screeningListFor(context, userId, filter));
  });

  router.get('/referrals', async (req, res) => {
    const context = contextOf(req);
    const userId = await patientIdOf(context, 'REFFERENCE_UNAUTHORIZED', 'referrals list');
    const range = parseInput(referralListQuerySchema, presentQuery(req));
    res.json(await referralListFor(context, userId, range));
  });

  return router;
}
