import { Router, type Response } from 'express';
import { z } from 'zod';
import { requireSession } from '../auth/gates';
import { notFound } from '../lib/errors';
import { sendPdf } from '../lib/pdf-download';
import { parseInput, parseLanguage } from '../lib/parse';
import type { InstructionType } from './repo';
import { createContentService, type ContentDeps } from './service';

const bannersQuery = z.object({ type: z.enum(['top-placement', 'bottom-placement'], { error: 'errors.generic' }) });
const instructionsQuery = z.object({ type: z.enum(['iso', 'referral-information'], { error: 'errors.generic' }) });

/**
 * Sponsor banners and the support materials of the result page (`/api/banners`,
 * `/api/instructions`). Nobody's personal data, but shown only inside the signed-in page, so they
 * need a session like it.
 */
export function contentRouter(deps: ContentDeps): Router {
  const content = createContentService(deps);
  const router = Router();

  router.get('/banners', requireSession, async (req, res) => {
    const { type } = parseInput(bannersQuery, req.query);
    res.json(await content.banners(type));
  });

  const sendInstruction = async (type: InstructionType, query: unknown, res: Response) => {
    const instruction = await content.instruction(type, parseLanguage(query));
    if (!instruction) throw notFound();
    sendPdf(res, instruction.content, instruction.name);
  };

  router.get('/instructions/iso', requireSession, async (req, res) => {
    await sendInstruction('iso', req.query, res);
  });

  router.get('/instructions', requireSession, async (req, res) => {
    const { type } = parseInput(instructionsQuery, req.query);
    await sendInstruction(type, req.query, res);
  });

  return router;
}
