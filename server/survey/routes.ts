import { Router } from 'express';
import { contextOf, requireSession } from '../auth/gates';
import { ids, parseIds } from '../lib/parse';
import { createSurveyService, type SurveyDeps } from './service';

/** `/api/screening/survey` (docs/api.md, "Survey"). */
export function surveyRouter(deps: SurveyDeps): Router {
  const survey = createSurveyService(deps);
  const router = Router();
  router.use(requireSession);

  router.get('/', async (req, res) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    const status = await survey.status(contextOf(req), id);
    if (status) res.json(status);
    else res.status(204).end();
  });

  router.post('/', async (req, res) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    await survey.submit(contextOf(req), id, req.body);
    res.status(201).json({});
  });

  return router;
}
