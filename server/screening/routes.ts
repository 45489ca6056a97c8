import { Router } from 'express';
import { z } from 'zod';
import { callerOf, requireSession } from '../auth/gates';
import type { Db } from '../db';
import { notFound } from '../lib/errors';
import { screeningInfoFor } from './service';

const MAX_ID = 2_147_483_647;
/** An id that cannot name a screening is simply one that is not found. */
const screeningQuery = z.object({ id: z.coerce.number().int().min(1).max(MAX_ID).optional() });

/** `/api/screening`. */
export function screeningRouter(db: Db): Router {
  const router = Router();
  router.use(requireSession);

  router.get('/', async (req, res) => {
    const query = screeningQuery.safeParse(req.query);
    if (!query.success) throw notFound();
    res.json(await screeningInfoFor(db, callerOf(req), query.data.id, req.ip));
  });

  return router;
}
