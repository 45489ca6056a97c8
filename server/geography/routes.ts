import { Router } from 'express';
import { citySearchSchema } from '../../common/validation/geography';
import { requirePatient } from '../auth/gates';
import type { Db } from '../db';
import { parseInput } from '../lib/parse';
import { createGeographyService } from './geography-service';

/**
 * The locality register (docs/api.md "Locality register"): provinces and the city search of the
 * copy-order form. Patient-portal sessions only, like the form itself (DECISIONS.md 4).
 */
export function geographyRouter(deps: { db: Db }): Router {
  const geography = createGeographyService(deps);
  const router = Router();
  router.use(['/screening/provinces', '/screening/cities'], requirePatient);

  router.get('/screening/provinces', async (_req, res) => {
    res.json(await geography.provinces());
  });

  router.get('/screening/cities', async (req, res) => {
    const { provinceTid, cityName } = parseInput(citySearchSchema, req.query);
    res.json(await geography.cities(provinceTid, cityName));
  });

  return router;
}
