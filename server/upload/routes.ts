import { Router, type Request } from 'express';
import { patientOf, requirePatient } from '../auth/gates';
import type { Clock } from '../lib/clock';
import { errorForLog } from '../lib/logger';
import { removeStaleIncoming, withReceivedFiles } from './multipart';
import { limitsFor, refreshDiscImages, storeUpload, studiesOf, uploaderOf, type UploadDeps, type Uploader } from './service';

/**
 * `/api/dicom` (docs/api.md "DICOM upload"): the patient's own DICOM images. Patient-portal
 * sessions only (DECISIONS.md 4): a guest session is answered 404, no session 401. CSRF is
 * checked in front of every /api router.
 */
export function uploadRouter(deps: UploadDeps, clock: Clock): Router {
  const router = Router();
  router.use(requirePatient);
  const uploaderFor = (req: Request): Promise<Uploader> => uploaderOf(deps.db, patientOf(req).userId, req.ip);
  void removeStaleIncoming(deps.storage.incomingDir, clock());

  router.post('/', async (req, res) => {
    const uploader = await uploaderFor(req);
    const outcome = await withReceivedFiles(req, res, deps.storage.incomingDir, deps.limits, (files) => storeUpload(deps, uploader, files));
    if (outcome.stored > 0) {
      // The images are stored; a disc image left stale is logged rather than reported as a failed upload.
      await refreshDiscImages(deps, uploader).catch((error: unknown) => req.log.error({ err: errorForLog(error) }, 'disc images not refreshed after upload'));
    }
    res.json(outcome);
  });

  router.get('/', async (req, res) => {
    res.json(await studiesOf(deps, await uploaderFor(req)));
  });

  router.get('/limits', async (req, res) => {
    res.json(await limitsFor(deps, await uploaderFor(req)));
  });

  return router;
}
