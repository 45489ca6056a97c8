import { Router, type Request } from 'express';
import { callerOf, requireSession } from '../auth/gates';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { RequestContext } from '../result/ownership';
import { idParams, parseIds } from '../result/query';
import { submitSurvey, surveyStatus } from './service';

/** `/api/screening/survey` (docs/api.md, "Survey"). */
export function surveyRouter(db: Db, clock: Clock): Router {
  const router = Router();
  router.use('/survey', requireSession);
  const contextOf = (req: Request): RequestContext => ({ db, caller: callerOf(req), ip: req.ip });

  router.get('/survey', async (req, res) => {
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.query);
    const status = await surveyStatus(contextOf(req), id);
    if (status) res.json(status);
    else res.status(204).end();
  });

  router.post('/survey', async (req, res) => {
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.query);
    await submitSurvey(contextOf(req), clock, id, req.body);
    res.status(201).json({});
  });

  return router;
}
