import { Router, type Request } from 'express';
import { patientOf, requirePatient } from '../auth/gates';
import { patientReadWithSession } from '../auth/session-store';
import { withReceivedFiles } from './multipart';
import { resumableUploadsRouter } from './resumable/routes';
import { createUploadService, type UploadDeps, type Uploader } from './service';

/**
 * `/api/dicom` (docs/api.md "DICOM upload", "Resumable DICOM upload"): the patient's own DICOM images. Patient-portal
 * sessions only (DECISIONS.md 4): a guest session is answered 404, no session 401. CSRF is
 * checked in front of every /api router.
 */
export function uploadRouter(deps: UploadDeps): Router {
  const uploads = createUploadService(deps);
  const router = Router();
  router.use(requirePatient);
  // Her person as read with the session row: no query of its own on every resumable upload's request.
  const uploaderFor = (req: Request): Promise<Uploader> =>
    uploads.uploaderOf(patientOf(req).userId, req.ip, patientReadWithSession(req)?.personalDataId);

  router.post('/', async (req, res) => {
    const uploader = await uploaderFor(req);
    res.json(await withReceivedFiles(req, uploads.incomingDir, uploads.limits, (files) => uploads.store(uploader, files)));
  });

  router.get('/', async (req, res) => {
    res.json(await uploads.studiesOf(await uploaderFor(req)));
  });

  router.get('/limits', async (req, res) => {
    res.json(await uploads.limitsFor(await uploaderFor(req)));
  });

  // Resumable uploads (tus), one file each, checked and stored as the files of POST / are.
  router.use('/uploads', resumableUploadsRouter(deps, uploads, uploaderFor));

  return router;
}
