import express, { Router } from 'express';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import type { Db } from '../../db';
import { ids } from '../../lib/parse';
import type { SandboxNotifier } from './notifier';
import { checkoutPage, notFoundPage, SANDBOX_CSS, sandboxLanguage } from './page';
import { decideCheckout, findCheckout } from './repo';

const ACTIONS = { pay: 'COMPLETED', cancel: 'CANCELED', pending: 'PENDING' } as const;
const decisionSchema = z.object({ action: z.enum(['pay', 'cancel', 'pending']) });

/**
 * The sandbox's hosted checkout (`/payment-sandbox/{checkoutId}`): the page, and the buyer's
 * decision. After a decision the buyer goes back to the shop's continue URL, with `error=501`
 * when cancelled, as PayU does; the shop learns the outcome from the notification alone. The
 * checkout id is a random UUID: knowing it is what lets one pay, as with a provider's link.
 */
export function sandboxCheckoutRouter(deps: { db: Db; clock: Clock; notifier: SandboxNotifier }): Router {
  const { db, clock, notifier } = deps;
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/assets/sandbox.css', (_req, res) => {
    res.type('text/css').set('Cache-Control', 'public, max-age=3600').send(SANDBOX_CSS);
  });

  router.get('/:checkoutId', async (req, res) => {
    const language = sandboxLanguage(req.query.lang);
    const checkout = await checkoutOf(req.params.checkoutId);
    if (!checkout) {
      res.status(404).type('html').send(notFoundPage(language));
      return;
    }
    res.type('html').send(checkoutPage(checkout, sandboxLanguage(req.query.lang, checkout.language)));
  });

  router.post('/:checkoutId', express.urlencoded({ extended: false, limit: '1kb' }), async (req, res) => {
    const language = sandboxLanguage(req.query.lang);
    const checkout = await checkoutOf(req.params.checkoutId);
    const decision = decisionSchema.safeParse(req.body);
    if (!checkout || !decision.success) {
      res.status(404).type('html').send(notFoundPage(language));
      return;
    }
    const status = ACTIONS[decision.data.action];
    if (await decideCheckout(db, checkout.id, status, new Date(clock()))) await notifier.notify({ checkoutId: checkout.id });
    const back = new URL(checkout.continueUrl);
    if (status === 'CANCELED') back.searchParams.set('error', '501');
    res.redirect(303, back.toString());
  });

  async function checkoutOf(id: string) {
    return ids.uuid.safeParse(id).success ? findCheckout(db, id) : undefined;
  }

  return router;
}
