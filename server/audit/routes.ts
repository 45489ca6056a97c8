import { Router } from 'express';
import { auditQuerySchema, browserDetailsSchema } from '../../common/audit';
import { callerOf, requireSession } from '../auth/gates';
import { parseInput, presentQuery } from '../lib/parse';
import { createAuditService, type AuditDeps } from './service';

declare module 'express-session' {
  interface SessionData {
    /** The browser details of this session are stored; later reports are ignored. */
    browserDetailsRecorded: boolean;
  }
}

/** `/api/audit`: the caller's own audit log (spec section 7). */
export function auditRouter(deps: AuditDeps): Router {
  const audit = createAuditService(deps);
  const router = Router();
  router.use(requireSession);

  router.get('/', async (req, res) => {
    const query = parseInput(auditQuerySchema, presentQuery(req.query));
    res.json(await audit.page(callerOf(req), query));
  });

  router.post('/browser', async (req, res) => {
    const details = parseInput(browserDetailsSchema, req.body);
    if (!req.session.browserDetailsRecorded) {
      await audit.recordBrowserDetails(callerOf(req), details);
      req.session.browserDetailsRecorded = true;
    }
    res.status(204).end();
  });

  return router;
}
