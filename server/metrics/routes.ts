import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Config } from '../config';
import { errorForLog, type Logger } from '../lib/logger';
import type { Metrics } from './metrics';

export type MetricsDeps = { config: Pick<Config, 'metricsToken'>; metrics: Pick<Metrics, 'registry'>; logger: Logger };

/**
 * `GET /metrics` for Prometheus, on the portal's port but behind `METRICS_TOKEN` (a bearer token):
 * without the setting it does not exist (404), with a wrong or missing token it answers 401. The
 * figures name no patient, but they tell traffic and backlog, which is nobody else's business.
 */
export function metricsRouter({ config, metrics, logger }: MetricsDeps): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!config.metricsToken) {
      res.status(404).type('text').send('Not found');
      return;
    }
    if (!bearerMatches(req.get('authorization'), config.metricsToken)) {
      res.status(401).set('WWW-Authenticate', 'Bearer').type('text').send('Unauthorized');
      return;
    }
    try {
      const text = await metrics.registry.metrics();
      res.type(metrics.registry.contentType).send(text);
    } catch (error) {
      // A gauge read from the database failed (it is down): the scrape fails, the process does not.
      logger.warn({ err: errorForLog(error) }, 'metrics not collected');
      res.status(503).type('text').send('Metrics unavailable');
    }
  });
  return router;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
