import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { eventually, insertCatalog, insertSlot, signedInPatient } from '../../tests/support/orders';

// Shorter than the 15-minute idle limit of a session, so the buyers stay signed in while it runs out.
const HOLD_MINUTES = 5;
let app: TestApp;
let products: Record<string, number>;

beforeAll(async () => {
  app = await startTestApp({ config: { payments: { ...loadPayments(), consultationHoldMinutes: HOLD_MINUTES, expirySweepSeconds: 1 } } });
  products = await insertCatalog(app.db);
});
afterAll(() => app?.close());

/** The test app's own payment settings, with a faster expiry sweep. */
function loadPayments() {
  return {
    provider: 'sandbox' as const,
    sandboxSecondKey: 'test-sandbox-second-key-0123456789',
    unpaidOrderMinutes: 60,
    consultationHoldMinutes: 15,
    expirySweepSeconds: 1,
  };
}

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60_000);

function consultationOrder(buyer: { userId: number; screeningId: number }, slotId: number) {
  return {
    screeningId: buyer.screeningId,
    productId: products['radiologist-consultation'],
    consultationRegistrationId: slotId,
    userId: buyer.userId,
    language: 'pl',
  };
}

describe('consultations', () => {
  it('lists free future slots and sells each slot once, however many patients try at once', async () => {
    const slot = await insertSlot(app.db, inDays(3));
    await insertSlot(app.db, inDays(-1), 'lek. Przeszła');
    // Signed in one after another: logins at once would be throttled, the orders at once are the point.
    const buyers = [];
    for (let index = 0; index < 20; index++) buyers.push(await signedInPatient(app, `Rywalka${index}`));
    const free = await buyers[0]!.client.get('/api/consultations');
    expect(free.body.map((entry: { id: number }) => entry.id)).toEqual([slot]);

    const attempts = await Promise.all(buyers.map((buyer) => buyer.client.post('/api/order-consultation', consultationOrder(buyer, slot))));
    const statuses = attempts.map((attempt) => attempt.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    expect(attempts.filter((attempt) => attempt.status === 409).every((attempt) => attempt.body.code === 'SLOT_TAKEN')).toBe(true);
    expect(Number((await app.db('orders').where({ consultation_slot_id: slot }).count({ n: '*' }).first())!.n)).toBe(1);
    expect((await buyers[1]!.client.get('/api/consultations')).body).toEqual([]);
  });

  it('holds the slot while she pays, and frees it when the hold runs out', async () => {
    const slot = await insertSlot(app.db, inDays(5), 'lek. Trzymana');
    const first = await signedInPatient(app, 'Pierwsza');
    const second = await signedInPatient(app, 'Druga');
    const ordered = await first.client.post('/api/order-consultation', consultationOrder(first, slot));
    expect(ordered.status).toBe(201);
    expect(new Date(ordered.body.expiresAt).getTime() - app.clock.now()).toBeGreaterThan((HOLD_MINUTES - 1) * 60_000);
    expect(ordered.body.price).toEqual({ amountGrosze: 20000, currency: 'PLN' });
    const payment = await first.client.post('/api/payment', { orderId: ordered.body.orderId, consultationRegistrationId: slot });
    expect(payment.body.redirectUri).toContain('/payment-sandbox/');

    expect((await second.client.post('/api/order-consultation', consultationOrder(second, slot))).body.code).toBe('SLOT_TAKEN');

    app.clock.advance((HOLD_MINUTES + 1) * 60_000);
    const expired = await eventually('the hold to run out', async () => {
      const status = await first.client.get(`/api/order/${ordered.body.orderId}/status`);
      return status.body.status === 'CANCELED' && status.body;
    });
    expect(expired.order).toMatchObject({ canPay: false, canCancel: false, done: true });
    expect((await first.client.post('/api/payment', { orderId: ordered.body.orderId })).body.code).toBe('ORDER_NOT_PAYABLE');
    expect((await second.client.post('/api/order-consultation', consultationOrder(second, slot))).status).toBe(201);
    const expiredMail = await app
      .db('outbox_messages')
      .where({ recipient: 'pierwsza@example.com' })
      .where('subject', 'like', 'Zamówienie wygasło%')
      .first();
    expect(expiredMail).toBeDefined();
  });

  it('takes only her own user id and a consultation product', async () => {
    const slot = await insertSlot(app.db, inDays(7), 'lek. Własna');
    const buyer = await signedInPatient(app, 'Sprawdzana');
    const other = await signedInPatient(app, 'Inna');
    const asOther = await buyer.client.post('/api/order-consultation', { ...consultationOrder(buyer, slot), userId: other.userId });
    expect(asOther.status).toBe(404);
    const wrongProduct = await buyer.client.post('/api/order-consultation', {
      ...consultationOrder(buyer, slot),
      productId: products['copy-of-images'],
    });
    expect(wrongProduct.body).toEqual({ code: 'VALIDATION', issues: [{ path: 'productId', message: 'order.validation.product' }] });
  });
});
