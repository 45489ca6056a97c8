import { Router } from 'express';
import { contactRequestSchema } from '../../common/validation/contact';
import { parseInput } from '../lib/parse';
import { createContactService, type ContactDeps } from './service';

/** `/api/contact`: public, no session needed; CSRF is checked before it like everywhere. */
export function contactRouter(deps: ContactDeps): Router {
  const contact = createContactService(deps);
  const router = Router();

  router.post('/create', async (req, res) => {
    const message = parseInput(contactRequestSchema, req.body);
    await contact.submit(message, req.ip);
    res.status(201).json({});
  });

  return router;
}
