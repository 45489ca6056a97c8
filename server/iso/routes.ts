import { Router } from 'express';
import { contextOf, requireSession } from '../auth/gates';
import { ids, parseIds } from '../lib/parse';
import { sendStoredFile } from '../lib/stored-file-response';
import { createIsoService, type IsoDeps } from './service';

/** `/api/iso` (docs/api.md, "ISO disc image"). */
export function isoRouter(deps: IsoDeps): Router {
  const iso = createIsoService(deps);
  const router = Router();
  router.use(requireSession);

  router.get('/status', async (req, res) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    res.json({ status: await iso.status(contextOf(req), id) });
  });

  router.post('/generate', async (req, res) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.body ?? {});
    res.status(202).json({ status: await iso.generate(contextOf(req), id) });
  });

  router.get('/', async (req, res, next) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    const file = await iso.download(contextOf(req), id);
    sendStoredFile(res, next, { ...file, contentType: 'application/x-iso9660-image' });
  });

  return router;
}
