import { Router, type Request } from 'express';
import { auditQuerySchema, browserDetailsSchema } from '../../common/audit';
import { callerOf, requireSession } from '../auth/gates';
import type { Db } from '../db';
import { parseInput } from '../lib/validate';
import { auditPageFor, recordBrowserDetails } from './service';

declare module 'express-session' {
  interface SessionData {
    /** The browser details of this session are stored; later reports are ignored. */
    browserDetailsRecorded: boolean;
  }
}

/** An empty parameter (`?from=`) means the filter is not used, as an untouched form field. */
function presentQuery(req: Request): Record<string, unknown> {
  return Object.fromEntries(Object.entries(req.query).filter(([, value]) => value !== ''));
}

/** `/api/audit`: the caller's own audit log (spec section 7). */
export function auditRouter(db: Db): Router {
  const router = Router();
  router.use(requireSession);

  router.get('/', async (req, res) => {
    const query = parseInput(auditQuerySchema, presentQuery(req));
    res.json(await auditPageFor(db, callerOf(req), query));
  });

  router.post('/browser', async (req, res) => {
    const details = parseInput(browserDetailsSchema, req.body);
    if (!req.session.browserDetailsRecorded) {
      await recordBrowserDetails(db, callerOf(req), details);
      req.session.browserDetailsRecorded = true;
    }
    res.status(204).end();
  });

  return router;
}
