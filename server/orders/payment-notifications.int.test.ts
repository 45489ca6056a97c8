import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOpenPayu } from '../payments/openpayu-signature';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { insertCatalog, insertPlaces, postalCopyForm, signedInPatient } from '../../tests/support/orders';
import { insertDocument } from '../../tests/support/screening-documents';

let app: TestApp;
let places: Awaited<ReturnType<typeof insertPlaces>>;

beforeAll(async () => {
  app = await startTestApp();
  await insertCatalog(app.db);
  places = await insertPlaces(app.db);
});
afterAll(() => app?.close());

/** An order waiting for its payment at the sandbox; the notifications below are written by hand. */
async function openCheckout(name: string) {
  const buyer = await signedInPatient(app, name);
  const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
  const payment = await app.db('payments').where({ id: created.body.paymentId }).first();
  return {
    buyer,
    orderId: created.body.orderId as number,
    paymentId: payment.id as number,
    providerOrderId: payment.provider_order_id as string,
  };
}

function orderNotification(providerOrderId: string, status: string, totalAmount = '2100', currencyCode = 'PLN') {
  return JSON.stringify({
    order: { orderId: providerOrderId, extOrderId: 'x', currencyCode, totalAmount, status },
    localReceiptDateTime: new Date().toISOString(),
  });
}

async function notify(body: string, signature: string | null) {
  const response = await fetch(`${app.baseUrl}/api/payments/notify/sandbox`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(signature !== null && { 'OpenPayu-Signature': signature }) },
    body,
  });
  return response.status;
}

const signed = (body: string, algorithm: 'MD5' | 'SHA-256' = 'SHA-256') =>
  signOpenPayu(body, app.config.payments.sandboxSecondKey, algorithm);

async function statuses(checkout: { orderId: number; paymentId: number }) {
  const order = await app.db('orders').where({ id: checkout.orderId }).first('status', 'done');
  const payment = await app.db('payments').where({ id: checkout.paymentId }).first('status', 'flag');
  return { order: order.status, done: order.done, payment: payment.status, flag: payment.flag };
}

describe('POST /api/payments/notify/{provider}', () => {
  it('refuses a forged or unsigned notification, keeps it, and changes nothing', async () => {
    const checkout = await openCheckout('Podrobiona');
    const body = orderNotification(checkout.providerOrderId, 'COMPLETED');
    expect(await notify(body, signOpenPayu(body, 'not-the-second-key'))).toBe(401);
    expect(await notify(body, null)).toBe(401);
    expect(await notify(body.replace('2100', '2101'), signed(body))).toBe(401);
    expect(await statuses(checkout)).toEqual({ order: 'NEW', done: false, payment: 'NEW', flag: null });
    const kept = await app.db('payment_notifications').where({ signature_valid: false }).pluck('outcome');
    expect(kept).toEqual(['refused_bad_signature', 'refused_missing_signature', 'refused_bad_signature']);
    expect(app.logs.filter((line) => line.includes('payment notification refused'))).toHaveLength(3);
  });

  it('applies a verified one once: a replay and an older status change nothing', async () => {
    const checkout = await openCheckout('Powtorzona');
    const completed = orderNotification(checkout.providerOrderId, 'COMPLETED');
    expect(await notify(completed, signed(completed, 'MD5'))).toBe(200);
    expect(await notify(completed, signed(completed))).toBe(200);
    const pending = orderNotification(checkout.providerOrderId, 'PENDING');
    expect(await notify(pending, signed(pending))).toBe(200);
    expect(await statuses(checkout)).toEqual({ order: 'COMPLETED', done: false, payment: 'COMPLETED', flag: null });
    const outcomes = await app.db('payment_notifications').where({ payment_id: checkout.paymentId }).orderBy('id').pluck('outcome');
    expect(outcomes).toEqual(['applied', 'replay', 'stale']);
    const paidMails = await app
      .db('audit_entries')
      .where({ type: 'PAYMENT_COMPLETED', user_id: checkout.buyer.userId })
      .count({ n: '*' })
      .first();
    expect(Number(paidMails!.n)).toBe(1);
  });

  it('never completes an order whose amount or currency differs, and flags it', async () => {
    const checkout = await openCheckout('Kwota');
    const cheaper = orderNotification(checkout.providerOrderId, 'COMPLETED', '100');
    expect(await notify(cheaper, signed(cheaper))).toBe(200);
    expect(await statuses(checkout)).toEqual({ order: 'NEW', done: false, payment: 'NEW', flag: 'amount_mismatch' });
    const euro = orderNotification(checkout.providerOrderId, 'COMPLETED', '2100', 'EUR');
    expect(await notify(euro, signed(euro))).toBe(200);
    expect((await statuses(checkout)).order).toBe('NEW');
  });

  it('answers 200 for an order it does not know, and logs it', async () => {
    const body = orderNotification('00000000-0000-4000-8000-000000000000', 'COMPLETED');
    expect(await notify(body, signed(body))).toBe(200);
    expect(Number((await app.db('payment_notifications').where({ outcome: 'unknown_order' }).count({ n: '*' }).first())!.n)).toBe(1);
    expect(app.logs.some((line) => line.includes('"outcome":"unknown_order"'))).toBe(true);
  });

  it('flags money that arrives after the order was cancelled', async () => {
    const checkout = await openCheckout('Spozniona');
    await checkout.buyer.client.post(`/api/order/${checkout.orderId}/cancel`);
    const completed = orderNotification(checkout.providerOrderId, 'COMPLETED');
    expect(await notify(completed, signed(completed))).toBe(200);
    expect(await statuses(checkout)).toEqual({ order: 'CANCELED', done: true, payment: 'CANCELED', flag: 'paid_after_cancel' });
  });

  it('knows only the configured provider', async () => {
    const body = orderNotification('x', 'COMPLETED');
    const payu = await fetch(`${app.baseUrl}/api/payments/notify/payu`, {
      method: 'POST',
      body,
      headers: { 'OpenPayu-Signature': signed(body) },
    });
    expect(payu.status).toBe(404);
  });
});

describe('POST /api/payment', () => {
  it('makes one provider order however many clicks arrive at once', async () => {
    const buyer = await signedInPatient(app, 'Klikajaca');
    const created = await buyer.client.post(`/api/order`, {
      screeningId: buyer.screeningId,
      productId: (await app.db('products').where({ code: 'translation-en' }).first('id')).id,
      documentId: await describedDocument(buyer.screeningId),
    });
    expect(created.status).toBe(201);
    const clicks = await Promise.all(
      Array.from({ length: 10 }, () => buyer.client.post('/api/payment', { orderId: created.body.orderId })),
    );
    expect(clicks.map((click) => click.status)).toEqual(Array(10).fill(200));
    expect(new Set(clicks.map((click) => click.body.redirectUri)).size).toBe(1);
    expect(Number((await app.db('payments').where({ order_id: created.body.orderId }).count({ n: '*' }).first())!.n)).toBe(1);
    expect(
      Number(
        (await app
          .db('sandbox_checkouts')
          .where({ ext_order_id: (await app.db('payments').where({ order_id: created.body.orderId }).first()).ext_order_id })
          .count({ n: '*' })
          .first())!.n,
      ),
    ).toBe(1);
  });

  it('refuses another patient’s order with 404 and audits the attempt', async () => {
    const owner = await openCheckout('Wlascicielka');
    const other = await signedInPatient(app, 'Ciekawska');
    const attempt = await other.client.post('/api/payment', { orderId: owner.orderId });
    expect(attempt.status).toBe(404);
    expect((await other.client.get(`/api/order/${owner.orderId}/status`)).status).toBe(404);
    const refused = await app.db('audit_entries').where({ type: 'ORDER_UNAUTHORIZED', user_id: other.userId }).pluck('description');
    expect(refused).toEqual([`order ${owner.orderId}`, `order ${owner.orderId}`]);
  });
});

function describedDocument(screeningId: number): Promise<string> {
  return insertDocument(app.db, screeningId, { kind: 'description', language: 'pl', name: 'Opis badania.pdf', text: 'Opis' });
}
