import { Router } from 'express';
import { contextOf, requireSession } from '../auth/gates';
import { sendPdf } from '../lib/pdf-download';
import { ids, parseIds, parseLanguage } from '../lib/parse';
import { createScreeningDocumentsService } from './documents-service';
import { createScreeningListService } from './list-service';
import { createScreeningService, type ScreeningDeps } from './screening-service';

/**
 * The patient's screenings: `/api/screening` (one screening: info, result page, its documents)
 * and `/api/screenings` (the list and the referrals). docs/api.md, "Result page" and "Screenings
 * list and referrals".
 */
export function screeningsRouter(deps: ScreeningDeps): Router {
  const screenings = createScreeningService(deps);
  const documents = createScreeningDocumentsService(deps);
  const lists = createScreeningListService(deps);
  const router = Router();
  router.use(['/screening', '/screenings'], requireSession);

  router.get('/screening', async (req, res) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    res.json(await screenings.info(contextOf(req), id));
  });

  router.get('/screening/result', async (req, res) => {
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    res.json(await screenings.result(contextOf(req), id));
  });

  router.get('/screening/download-result', async (req, res) => {
    const lang = parseLanguage(req.query);
    const { documentId, screeningId } = parseIds({ documentId: ids.uuid, screeningId: ids.optionalSerial }, req.query);
    const file = await documents.download(contextOf(req), documentId, screeningId, lang);
    sendPdf(res, file.bytes, file.fileName);
  });

  router.get('/screening/download-wykaz', async (req, res) => {
    const lang = parseLanguage(req.query);
    const { screeningId } = parseIds({ screeningId: ids.optionalSerial }, req.query);
    const file = await documents.referral(contextOf(req), screeningId, 'facilities_list', lang);
    sendPdf(res, file.bytes, file.fileName);
  });

  router.get('/screening/referral', async (req, res) => {
    const lang = parseLanguage(req.query);
    const { id } = parseIds({ id: ids.optionalSerial }, req.query);
    const file = await documents.referral(contextOf(req), id, 'referral', lang);
    sendPdf(res, file.bytes, file.fileName);
  });

  router.get('/screening/:id/referral/exists', async (req, res) => {
    const { id } = parseIds({ id: ids.serial }, req.params);
    res.json({ exists: await documents.referralExists(contextOf(req), id) });
  });

  router.get('/screenings', async (req, res) => {
    res.json(await lists.screenings(contextOf(req), req.query));
  });

  router.get('/screenings/referrals', async (req, res) => {
    res.json(await lists.referrals(contextOf(req), req.query));
  });

  return router;
}
