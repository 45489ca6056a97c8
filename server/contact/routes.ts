import { Router } from 'express';
import { contactRequestSchema } from '../../common/validation/contact';
import { parseInput } from '../lib/validate';
import type { ContactService } from './service';

/** `/api/contact`: public, no session needed; CSRF is checked before it like everywhere. */
export function contactRouter(contact: ContactService): Router {
  const router = Router();

  router.post('/create', async (req, res) => {
    const message = parseInput(contactRequestSchema, req.body);
    await contact.submit(message, req.ip);
    res.status(201).json({});
  });

  return router;
}
