import express, { Router } from 'express';
import { copyOrderFormSchema } from '../../common/validation/order-copy';
import { consultationOrderSchema, paymentSchema, translationOrderSchema } from '../../common/validation/orders';
import { contextOf, requirePatient } from '../auth/gates';
import { ids, parseIds, parseInput } from '../lib/parse';
import { createOrderService, type OrderDeps } from './order-service';

/**
 * The patient's purchases (docs/api.md "Orders and payments"): products and free consultation
 * slots, the copy-order form, orders, their payment and status. Patient-portal sessions only
 * (DECISIONS.md 4): a result-portal session is told "not found".
 */
export function ordersRouter(deps: OrderDeps): Router {
  const orders = createOrderService(deps);
  const router = Router();
  router.use(['/products', '/consultations', '/order', '/order-consultation', '/payment', '/screening/order-copy'], requirePatient);

  router.get('/products', async (_req, res) => {
    res.json(await orders.products());
  });

  router.get('/consultations', async (_req, res) => {
    res.json(await orders.consultations());
  });

  router.get('/screening/order-copy/:screeningId', async (req, res) => {
    const { screeningId } = parseIds({ screeningId: ids.serial }, req.params);
    res.json(await orders.copyOrderForm(contextOf(req), screeningId));
  });

  router.post('/screening/order-copy/payment-confirm/:screeningId', async (req, res) => {
    const { screeningId } = parseIds({ screeningId: ids.serial }, req.params);
    const { paymentId } = parseIds({ paymentId: ids.serial }, req.query);
    res.json(await orders.confirmPayment(contextOf(req), screeningId, paymentId));
  });

  router.post('/screening/order-copy/:screeningId', async (req, res) => {
    const { screeningId } = parseIds({ screeningId: ids.serial }, req.params);
    const form = parseInput(copyOrderFormSchema, req.body);
    res.status(201).json(await orders.createCopyOrder(contextOf(req), screeningId, form));
  });

  router.post('/order', async (req, res) => {
    res.status(201).json(await orders.createTranslationOrder(contextOf(req), parseInput(translationOrderSchema, req.body)));
  });

  router.post('/order-consultation', async (req, res) => {
    res.status(201).json(await orders.createConsultationOrder(contextOf(req), parseInput(consultationOrderSchema, req.body)));
  });

  router.post('/payment', async (req, res) => {
    const { orderId, consultationRegistrationId } = parseInput(paymentSchema, req.body);
    res.json(await orders.pay(contextOf(req), orderId, consultationRegistrationId));
  });

  router.get('/order/:id/status', async (req, res) => {
    const { id } = parseIds({ id: ids.serial }, req.params);
    res.json(await orders.status(contextOf(req), id));
  });

  router.post('/order/:id/cancel', async (req, res) => {
    const { id } = parseIds({ id: ids.serial }, req.params);
    res.json(await orders.cancel(contextOf(req), id));
  });

  return router;
}

/** Notifications are signed over their exact bytes, so the body is read raw, never re-serialized. */
const NOTIFICATION_BODY_LIMIT = '64kb';

/**
 * `POST /api/payments/notify/{provider}`: the payment provider's server-to-server notifications.
 * No session and no CSRF token: the provider proves itself by the signature, checked over the raw
 * body. Mounted ahead of the patient chain (server/app.ts).
 */
export function paymentNotificationsRouter(deps: OrderDeps): Router {
  const { payments } = createOrderService(deps);
  const router = Router();
  router.post('/:provider', express.raw({ type: () => true, limit: NOTIFICATION_BODY_LIMIT }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const status = await payments.receiveNotification(req.params.provider, body, req.headers);
    res.status(status).json(status === 200 ? { status: 'OK' } : { code: 'INVALID_SIGNATURE' });
  });
  return router;
}
