import { Router, type Request } from 'express';
import { callerOf, requireSession } from '../auth/gates';
import type { Db } from '../db';
import { sendPdf } from '../lib/pdf-download';
import type { RequestContext } from './ownership';
import { idParams, parseIds, parseLanguage } from './query';
import { documentDownload, referralDocument, referralExists, resultFor } from './service';

/** The result page's calls under `/api/screening` (docs/api.md, "Result page"). */
export function resultRouter(db: Db): Router {
  const router = Router();
  router.use(requireSession);
  const contextOf = (req: Request): RequestContext => ({ db, caller: callerOf(req), ip: req.ip });

  router.get('/result', async (req, res) => {
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.query);
    res.json(await resultFor(contextOf(req), id));
  });

  router.get('/download-result', async (req, res) => {
    const lang = parseLanguage(req.query);
    const { documentId, screeningId } = parseIds({ documentId: idParams.documentId, screeningId: idParams.optionalScreeningId }, req.query);
    const file = await documentDownload(contextOf(req), documentId, screeningId, lang);
    sendPdf(res, file.bytes, file.fileName);
  });

  router.get('/download-wykaz', async (req, res) => {
    const lang = parseLanguage(req.query);
    const { screeningId } = parseIds({ screeningId: idParams.optionalScreeningId }, req.query);
    const file = await referralDocument(contextOf(req), screeningId, 'facilities_list', lang);
    sendPdf(res, file.bytes, file.fileName);
  });

  router.get('/referral', async (req, res) => {
    const lang = parseLanguage(req.query);
    const { id } = parseIds({ id: idParams.optionalScreeningId }, req.query);
    const file = await referralDocument(contextOf(req), id, 'referral', lang);
    sendPdf(res, file.bytes, file.fileName);
  });

  router.get('/:id/referral/exists', async (req, res) => {
    const { id } = parseIds({ id: idParams.screeningId }, req.params);
    res.json({ exists: await referralExists(contextOf(req), id) });
  });

  return router;
}
