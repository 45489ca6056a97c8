import { Router } from 'express';
import { errorForLog, type Logger } from '../lib/logger';
import { readinessChecks, runChecks, type ReadinessDeps } from './checks';

export type HealthDeps = ReadinessDeps & { logger: Logger };

/**
 * The operator's probes, outside every entry chain: no session, no CSRF token, no key, and no
 * personal data in the answer. `/healthz` (liveness) only says the process answers and touches
 * nothing; `/readyz` (readiness) checks the database, the migrations, the file store and the job
 * queue, and names only which part fails (the reason goes to the log).
 */
export function healthRouter(deps: HealthDeps): Router {
  const checks = readinessChecks(deps);
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    const { results, failures } = await runChecks(checks);
    const failing = Object.entries(failures);
    if (failing.length === 0) {
      res.json({ status: 'ready', checks: results });
      return;
    }
    for (const [check, error] of failing) deps.logger.warn({ check, err: errorForLog(error) }, 'readiness check failing');
    res.status(503).json({ status: 'not_ready', checks: results });
  });

  return router;
}
