import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { signOpenPayu } from '../payments/openpayu-signature';
import { eventually, insertCatalog, insertPlaces, postalCopyForm, signedInPatient } from '../../tests/support/orders';
import { providerClient, type ProviderClient } from '../../tests/support/provider';

/**
 * The provider's calls about orders: what to fulfil (with the copy's delivery details), the
 * shipment of a copy and its one notice per real change, refunds through the sandbox.
 */
let app: TestApp;
let places: Awaited<ReturnType<typeof insertPlaces>>;
let reader: ProviderClient;
let writer: ProviderClient;

beforeAll(async () => {
  app = await startTestApp();
  await insertCatalog(app.db);
  places = await insertPlaces(app.db);
  reader = await providerClient(app, ['orders:read']);
  writer = await providerClient(app, ['orders:read', 'orders:write']);
});
afterAll(() => app?.close());

/** A copy sent by post, paid on the sandbox's page; waits for the sandbox's notification. */
async function paidCopy(name: string, form: Record<string, unknown> = {}) {
  const buyer = await signedInPatient(app, name);
  const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, { ...postalCopyForm(places), ...form });
  expect(created.status).toBe(201);
  const decided = await fetch(created.body.redirectUri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'action=pay',
    redirect: 'manual',
  });
  expect(decided.status).toBe(303);
  const orderId = created.body.orderId as number;
  await eventually('the payment', async () => (await app.db('orders').where({ id: orderId }).first('status')).status === 'COMPLETED');
  return { orderId, paymentId: created.body.paymentId as number, email: `${name.toLowerCase()}@example.com` };
}

/** An order waiting for its payment. */
async function unpaidCopy(name: string) {
  const buyer = await signedInPatient(app, name);
  const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
  return created.body.orderId as number;
}

const noticesTo = (email: string) =>
  app.db('outbox_messages').where({ recipient: email, subject: 'Your order status has changed' }).count({ n: '*' }).first();
const noticeCount = async (email: string) => Number((await noticesTo(email))!.n);

describe('provider API: orders', () => {
  it('refuses keys without the scope', async () => {
    const catalogOnly = await providerClient(app, ['catalog:write']);
    const listed = await catalogOnly.get('/orders');
    expect(listed.status).toBe(403);
    expect(listed.body).toMatchObject({ code: 'API_KEY_SCOPE', requiredScope: 'orders:read' });
    const patched = await reader.patch('/orders/1/shipment', { shipmentStatus: 'prepared' });
    expect(patched.status).toBe(403);
    expect(patched.body).toMatchObject({ code: 'API_KEY_SCOPE', requiredScope: 'orders:write' });
    expect((await reader.post('/orders/1/refund', { reason: 'x' })).body).toMatchObject({ code: 'API_KEY_SCOPE' });
  });

  it('lists paid copies waiting to be prepared, with where they go, page by page', async () => {
    const first = await paidCopy('Listowana');
    const second = await paidCopy('Druga');
    const unpaid = await unpaidCopy('Nieoplacona');
    const answer = await reader.get('/orders?status=paid&shipment=awaiting&kind=copy');
    expect(answer.status).toBe(200);
    const ids = answer.body.orders.map((order: { id: number }) => order.id);
    expect(ids).toEqual(expect.arrayContaining([first.orderId, second.orderId]));
    expect(ids).not.toContain(unpaid);
    const order = answer.body.orders.find((candidate: { id: number }) => candidate.id === first.orderId);
    expect(order).toMatchObject({
      number: `MP-${String(first.orderId).padStart(6, '0')}`,
      kind: 'copy',
      productCode: 'copy-of-images',
      status: 'COMPLETED',
      shipmentStatus: 'awaiting',
      trackingNumber: null,
      done: false,
      language: 'en',
      delivery: {
        docReceiver: 1,
        requestTypes: ['result', 'digital_images'],
        recipient: { firstName: 'Listowana', lastName: 'Kupująca' },
        email: 'anna.testowa@example.com',
        address: {
          province: 'mazowieckie',
          city: 'Warszawa',
          postalCode: '02-495',
          street: 'Przykładowa',
          houseNumber: '12',
          apartmentNumber: null,
        },
        privilegedPerson: null,
      },
    });
    expect(order.price.amountGrosze).toBeGreaterThan(0);

    const page1 = await reader.get('/orders?kind=copy&limit=1');
    expect(page1.body.orders).toHaveLength(1);
    expect(page1.body.nextAfter).toBe(page1.body.orders[0].id);
    const page2 = await reader.get(`/orders?kind=copy&limit=1&after=${page1.body.nextAfter}`);
    expect(page2.body.orders[0].id).toBeGreaterThan(page1.body.nextAfter);
    expect((await reader.get('/orders?status=nonsense')).status).toBe(400);
    expect((await reader.get('/orders?limit=1000')).status).toBe(400);
  });

  it('reads one order; an unknown id is 404', async () => {
    const paid = await paidCopy('Jedna');
    const answer = await reader.get(`/orders/${paid.orderId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: paid.orderId, status: 'COMPLETED', shipmentStatus: 'awaiting' });
    expect((await reader.get('/orders/999999')).status).toBe(404);
    expect((await reader.get('/orders/abc')).status).toBe(404);
    const audit = await app
      .db('staff_audit')
      .where({ action: 'getOrder', object_id: String(paid.orderId) })
      .first();
    expect(audit).toMatchObject({ object_type: 'order', status: 200 });
  });

  it('moves a copy through its shipment, telling the patient once per real change', async () => {
    const paid = await paidCopy('Wysylkowa');
    expect(await noticeCount(paid.email)).toBe(0);

    const prepared = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'prepared' });
    expect(prepared.status).toBe(200);
    expect(prepared.body).toMatchObject({ shipmentStatus: 'prepared', trackingNumber: null, done: false });
    const again = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'prepared' });
    expect(again.body).toEqual(prepared.body);
    await eventually('the notice', async () => (await noticeCount(paid.email)) === 1);

    const sent = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'sent', trackingNumber: 'PL123456789' });
    expect(sent.body).toMatchObject({ shipmentStatus: 'sent', trackingNumber: 'PL123456789' });
    expect(
      (await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'sent', trackingNumber: 'PL123456789' })).body,
    ).toEqual(sent.body);
    await eventually('the second notice', async () => (await noticeCount(paid.email)) === 2);
    const notice = await app.db('outbox_messages').where({ recipient: paid.email }).orderBy('id', 'desc').first();
    expect(notice.body_text).toContain(`order no. MP-${String(paid.orderId).padStart(6, '0')} has been sent`);
    expect(notice.body_text).toContain('PL123456789');
    expect(notice.body_text).toContain(`${app.config.publicUrl}/order/${paid.orderId}/status`);
    expect(notice.body_text).not.toMatch(/result|BI-RADS|screening|examination/i);

    // Going back from sent is not a shipment; neither is a tracking number with another status.
    const back = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'awaiting' });
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ code: 'CONFLICT', reason: 'shipment_transition', from: 'sent', to: 'awaiting' });
    const tracking = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'delivered', trackingNumber: 'X1' });
    expect(tracking.status).toBe(400);
    expect(tracking.body.issues[0].path).toBe('trackingNumber');
    expect((await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'collected' })).body).toMatchObject({
      reason: 'shipment_transition',
    });

    const delivered = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'delivered' });
    expect(delivered.body).toMatchObject({ shipmentStatus: 'delivered', trackingNumber: 'PL123456789', done: true });
    await eventually('the third notice', async () => (await noticeCount(paid.email)) === 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await noticeCount(paid.email)).toBe(3);
  });

  it('notices in Polish for an order placed in Polish; a picked-up copy is collected, not sent', async () => {
    const paid = await paidCopy('Odbierajaca', { language: 'pl', docReceiver: 0 });
    expect((await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'sent' })).body).toMatchObject({
      code: 'CONFLICT',
      reason: 'not_sent_by_post',
    });
    const collected = await writer.patch(`/orders/${paid.orderId}/shipment`, { shipmentStatus: 'collected' });
    expect(collected.body).toMatchObject({ shipmentStatus: 'collected', done: true, delivery: { docReceiver: 0, address: null } });
    const notice = await eventually('the notice', () =>
      app.db('outbox_messages').where({ recipient: paid.email, subject: 'Zmiana statusu zamówienia' }).first(),
    );
    expect(notice.body_text).toContain('zostało odebrane osobiście');
  });

  it('refuses to ship what is not a paid copy', async () => {
    const unpaid = await unpaidCopy('Bezplatnosci');
    const answer = await writer.patch(`/orders/${unpaid}/shipment`, { shipmentStatus: 'prepared' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'CONFLICT', reason: 'not_shippable' });
    expect((await writer.patch('/orders/999999/shipment', { shipmentStatus: 'prepared' })).status).toBe(404);
    expect((await writer.patch(`/orders/${unpaid}/shipment`, { shipmentStatus: 'not_applicable' })).status).toBe(400);
  });

  it('refunds through the sandbox once, however the call is retried', async () => {
    const paid = await paidCopy('Zwrotna');
    const providerOrderId = (await app.db('payments').where({ id: paid.paymentId }).first()).provider_order_id;
    const refundsAtSandbox = () => app.db('sandbox_refunds').where({ checkout_id: providerOrderId }).select('amount_grosze', 'description');

    const tooMuch = await writer.post(`/orders/${paid.orderId}/refund`, { amountGrosze: 10_000_000, reason: 'Za dużo' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ code: 'CONFLICT', reason: 'refund_too_large' });

    const headers = { 'Idempotency-Key': `refund-${paid.orderId}` };
    const refunded = await writer.post(`/orders/${paid.orderId}/refund`, { reason: 'Rezygnacja' }, { headers });
    expect(refunded.status).toBe(200);
    const paidAmount = refunded.body.order.price.amountGrosze;
    expect(refunded.body.refund).toMatchObject({ status: 'PENDING', full: true, amountGrosze: paidAmount, currency: 'PLN' });
    expect(refunded.body.order).toMatchObject({ id: paid.orderId, done: true, status: 'COMPLETED' });
    expect(await refundsAtSandbox()).toEqual([{ amount_grosze: paidAmount, description: 'Rezygnacja' }]);
    expect((await app.db('orders').where({ id: paid.orderId }).first('done')).done).toBe(true);

    const replay = await writer.post(`/orders/${paid.orderId}/refund`, { reason: 'Rezygnacja' }, { headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(refunded.body);
    // Without the key, the same request is still the same refund at the provider.
    const retried = await writer.post(`/orders/${paid.orderId}/refund`, { reason: 'Rezygnacja' });
    expect(retried.status).toBe(200);
    expect(retried.body.refund.refundId).toBe(refunded.body.refund.refundId);
    expect(await refundsAtSandbox()).toHaveLength(1);

    expect(
      await app.db('order_refunds').where({ order_id: paid.orderId }).select('amount_grosze', 'status', 'reason', 'requested_by'),
    ).toEqual([{ amount_grosze: paidAmount, status: 'PENDING', reason: 'Rezygnacja', requested_by: expect.stringMatching(/^key:\d+$/) }]);

    // Another refund of an order paid back in full: the portal knows nothing is left.
    const more = await writer.post(`/orders/${paid.orderId}/refund`, { amountGrosze: 1, reason: 'Jeszcze' });
    expect(more.status).toBe(409);
    expect(more.body).toMatchObject({ code: 'CONFLICT', reason: 'nothing_to_refund' });
  });

  it("settles a kept refund by the provider's signed refund notification, and only forward", async () => {
    const paid = await paidCopy('Rozliczona');
    const refunded = await writer.post(`/orders/${paid.orderId}/refund`, { reason: 'Zwrot' });
    const { refundId } = refunded.body.refund;
    const providerOrderId = (await app.db('payments').where({ id: paid.paymentId }).first()).provider_order_id;
    const notify = async (status: string) => {
      const body = JSON.stringify({
        orderId: providerOrderId,
        extOrderId: 'x',
        refund: {
          refundId,
          amount: String(refunded.body.refund.amountGrosze),
          currencyCode: 'PLN',
          status,
          statusDateTime: new Date().toISOString(),
        },
      });
      const signature = signOpenPayu(body, app.config.payments.sandboxSecondKey, 'SHA-256');
      const response = await fetch(`${app.baseUrl}/api/payments/notify/sandbox`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'OpenPayu-Signature': signature },
        body,
      });
      expect(response.status).toBe(200);
    };
    const status = async () => (await app.db('order_refunds').where({ provider_refund_id: refundId }).first('status')).status;
    expect(await status()).toBe('PENDING');
    await notify('FINALIZED');
    expect(await status()).toBe('FINALIZED');
    await notify('CANCELED');
    expect(await status()).toBe('FINALIZED');
  });

  it('refunds part of a payment, and refuses an unpaid order', async () => {
    const paid = await paidCopy('Czesciowa');
    const part = await writer.post(`/orders/${paid.orderId}/refund`, { amountGrosze: 500, reason: 'Część' });
    expect(part.status).toBe(200);
    expect(part.body.refund).toMatchObject({ amountGrosze: 500, full: false });
    expect(part.body.order.done).toBe(false);
    const paidAmount = part.body.order.price.amountGrosze;
    const tooMuch = await writer.post(`/orders/${paid.orderId}/refund`, { amountGrosze: paidAmount, reason: 'Całość' });
    expect(tooMuch.body).toMatchObject({ code: 'CONFLICT', reason: 'refund_too_large', leftGrosze: paidAmount - 500 });
    const rest = await writer.post(`/orders/${paid.orderId}/refund`, { reason: 'Reszta' });
    expect(rest.body.refund).toMatchObject({ amountGrosze: paidAmount - 500, full: true });
    expect(rest.body.order.done).toBe(true);
    expect(await app.db('order_refunds').where({ order_id: paid.orderId }).orderBy('id').pluck('amount_grosze')).toEqual([
      500,
      paidAmount - 500,
    ]);
    const unpaid = await unpaidCopy('Niezaplacona');
    const refused = await writer.post(`/orders/${unpaid}/refund`, { reason: 'Zwrot' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', reason: 'not_paid' });
    expect((await writer.post('/orders/999999/refund', { reason: 'Zwrot' })).status).toBe(404);
    expect((await writer.post(`/orders/${unpaid}/refund`, {})).status).toBe(400);
  });
});
