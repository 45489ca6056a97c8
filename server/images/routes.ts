import { Router } from 'express';
import { contextOf, requireSession } from '../auth/gates';
import { ids, parseIds } from '../lib/parse';
import { sendStoredFile } from '../lib/stored-file-response';
import { createImagesService, type ImagesDeps } from './service';

/**
 * `/api/images` (docs/api.md "Images"): the DICOM images the browser's viewer shows. Any session:
 * a patient's screenings and uploads, a result-portal session's one screening. CSRF is checked in
 * front of every /api router; these are reads.
 */
export function imagesRouter(deps: ImagesDeps): Router {
  const images = createImagesService(deps);
  const router = Router();
  router.use(requireSession);

  router.get('/', async (req, res) => {
    res.json(await images.list(contextOf(req)));
  });

  router.get('/:id', async (req, res, next) => {
    const { id } = parseIds({ id: ids.uuid }, req.params);
    sendStoredFile(res, next, await images.file(contextOf(req), id));
  });

  return router;
}
