import { Router } from 'express';
import type { Config } from '../config';
import { AppError } from '../lib/errors';

/**
 * `GET /api/version`: the version string the footer shows outside production (spec section 1).
 * The server answers it because only the server knows its environment: every client build is a
 * production build. In production the call does not exist, so nothing reveals what is deployed.
 */
export function appInfoRouter({ config }: { config: Config }): Router {
  const router = Router();
  // Mounted at /version (patient-api.ts), so no other call enters this router.
  router.get('/', (_req, res) => {
    if (config.isProduction) throw new AppError(404, 'NOT_FOUND');
    res.json({ version: config.version });
  });
  return router;
}
