import { Router, type Request } from 'express';
import { callerOf, requireSession } from '../auth/gates';
import type { Db } from '../db';
import { idParams, parseIds } from '../result/query';
import type { RequestContext } from '../result/ownership';
import type { IsoService } from './service';

/** `/api/iso` (docs/api.md, "ISO disc image"). */
export function isoRouter(db: Db, iso: IsoService): Router {
  const router = Router();
  router.use(requireSession);
  const contextOf = (req: Request): RequestContext => ({ db, caller: callerOf(req), ip: req.ip });

  router.get('/status', async (req, res) => {
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.query);
    res.json({ status: await iso.status(contextOf(req), id) });
  });

  router.post('/generate', async (req, res) => {
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.body ?? {});
    res.status(202).json({ status: await iso.generate(contextOf(req), id) });
  });

  router.get('/', async (req, res, next) => {
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.query);
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
