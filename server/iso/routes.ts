import { Router } from 'express';
import { contextOf, requireSession } from '../auth/gates';
import { ids, parseIds } from '../lib/parse';
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
    // `send` answers Range requests (206, 416) and conditional ones; the API's no-store stays.
    res.download(
      file.path,
      file.fileName,
      { acceptRanges: true, cacheControl: false, lastModified: false, headers: { 'Content-Type': 'application/x-iso9660-image' } },
      (error?: Error & { status?: number }) => {
        if (!error || res.headersSent) return;
        if (error.status === 416) {
          res.status(416).set('Content-Range', `bytes */${file.sizeBytes}`).end();
          return;
        }
        next(error);
      },
    );
  });

  return router;
}
