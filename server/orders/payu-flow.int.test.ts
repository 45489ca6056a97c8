import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startTestApp, type TestApp } from '../../tests/support/app';
import { eventually, insertCatalog, insertPlaces, postalCopyForm, signedInPatient } from '../../tests/support/orders';
import { startPayuDouble, type PayuDouble } from '../../tests/support/payu-double';

/**
 * The whole portal paying through its PayU adapter, with PayU played by the local double: the
 * checkout, the signed notifications (retried, duplicated, forged, lost) and the retrieval that
 * settles an order whose notification never came.
 */
let double: PayuDouble;
let app: TestApp;
let places: Awaited<ReturnType<typeof insertPlaces>>;

beforeAll(async () => {
  double = await startPayuDouble();
  // The settings as an operator gives them (PAYMENT_PROVIDER=payu and PAYU_*), read by loadConfig.
  const { payments } = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    ACCESS_CODE_SECRET: 'test-access-code-secret-0123456789ab',
    PAYMENT_PROVIDER: 'payu',
    ORDER_EXPIRY_SWEEP_SECONDS: '1',
    ...double.env,
  });
  app = await startTestApp({ config: { payments } });
  await insertCatalog(app.db);
  places = await insertPlaces(app.db);
});
afterAll(async () => {
  await double?.settled();
  await app?.close();
  await double?.close();
});

/** A patient's copy with images ordered, and its checkout at the double. */
async function orderCopy(name: string) {
  const buyer = await signedInPatient(app, name);
  const created = await buyer.client.post(`/api/screening/order-copy/${buyer.screeningId}`, postalCopyForm(places));
  expect(created.status).toBe(201);
  const payment = await app.db('payments').where({ id: created.body.paymentId }).first();
  return {
    buyer,
    created,
    orderId: created.body.orderId as number,
    paymentId: created.body.paymentId as number,
    payuOrderId: payment.provider_order_id as string,
    status: async () => (await buyer.client.get(`/api/order/${created.body.orderId}/status`)).body.status as string,
  };
}

const outcomes = (paymentId: number) => app.db('payment_notifications').where({ payment_id: paymentId }).orderBy('id').pluck('outcome');
const paidAudits = async (userId: number) =>
  Number((await app.db('audit_entries').where({ type: 'PAYMENT_COMPLETED', user_id: userId }).count({ n: '*' }).first())!.n);

describe('a copy paid through PayU', () => {
  it('sends her to PayU, and the signed notification, delivered on the second try, marks it paid', async () => {
    const order = await orderCopy('Payu');
    expect(order.created.body.redirectUri).toBe(`${double.baseUrl}/pl/standard/co/summary?orderId=${order.payuOrderId}&lang=en`);
    const payment = await app.db('payments').where({ id: order.paymentId }).first();
    expect(payment).toMatchObject({ provider: 'payu', status: 'NEW' });
    expect(double.orders.get(order.payuOrderId)).toMatchObject({
      extOrderId: payment.ext_order_id,
      notifyUrl: `${app.baseUrl}/api/payments/notify/payu`,
      continueUrl: `${app.baseUrl}/payment?paymentId=${order.paymentId}&screeningId=${order.buyer.screeningId}`,
      customerIp: '127.0.0.1',
      merchantPosId: double.config.posId,
      currencyCode: 'PLN',
      totalAmount: '2100',
      buyer: { email: 'payu@example.com', firstName: 'Payu', lastName: 'Kupująca', language: 'en' },
      products: [{ name: expect.any(String), unitPrice: '2100', quantity: '1' }],
    });

    double.loseNextDeliveries(1);
    double.pay(order.payuOrderId);
    // Settled before she looks: her status page asks PayU itself and would find it paid anyway.
    await double.settled();
    expect(await order.status()).toBe('COMPLETED');
    const tries = double.deliveries.filter((delivery) => delivery.orderId === order.payuOrderId).map((delivery) => delivery.answer);
    expect(tries).toEqual(['lost', 200]);
    expect(await outcomes(order.paymentId)).toEqual(['applied']);
    expect(await paidAudits(order.buyer.userId)).toBe(1);

    // A forged notification (not signed with the second key) is refused and changes nothing.
    expect(await double.sendForged(order.payuOrderId, 'CANCELED')).toBe(401);
    expect(await order.status()).toBe('COMPLETED');
    const refused = await app.db('payment_notifications').where({ provider: 'payu', signature_valid: false }).pluck('outcome');
    expect(refused).toEqual(['refused_bad_signature']);
  });

  it('applies a notification PayU sends twice once', async () => {
    const order = await orderCopy('Dwukrotna');
    double.duplicateNextNotification();
    double.pay(order.payuOrderId);
    await double.settled();
    expect(await order.status()).toBe('COMPLETED');
    expect((await outcomes(order.paymentId)).sort()).toEqual(['applied', 'replay']);
    expect(await paidAudits(order.buyer.userId)).toBe(1);
  });

  it('never completes an order from a notification that reports another amount; PayU’s own answer does', async () => {
    const order = await orderCopy('Inna');
    double.misreportNextAmount('100');
    double.pay(order.payuOrderId);
    await double.settled();
    const payment = () => app.db('payments').where({ id: order.paymentId }).first('status', 'flag');
    expect(await payment()).toEqual({ status: 'NEW', flag: 'amount_mismatch' });
    expect(await outcomes(order.paymentId)).toEqual(['amount_mismatch']);
    // Her status page asks PayU, which reports the order's real amount: paid, still flagged for staff.
    expect(await order.status()).toBe('COMPLETED');
    expect(await payment()).toEqual({ status: 'COMPLETED', flag: 'amount_mismatch' });
  });

  it('asks PayU when the notification is lost and she comes back to the portal', async () => {
    const order = await orderCopy('Zgubiona');
    double.dropNextNotification();
    double.pay(order.payuOrderId);
    const confirmed = await order.buyer.client.post(
      `/api/screening/order-copy/payment-confirm/${order.buyer.screeningId}?paymentId=${order.paymentId}`,
    );
    expect(confirmed.body).toEqual({ status: 'COMPLETED', orderId: order.orderId, screeningId: order.buyer.screeningId });
    expect(await order.status()).toBe('COMPLETED');
    expect(double.deliveries.filter((delivery) => delivery.orderId === order.payuOrderId)).toEqual([]);
    expect(await outcomes(order.paymentId)).toEqual([]);
    expect(app.logs.some((line) => line.includes('payment settled by retrieval'))).toBe(true);
  });

  // Last: it moves the app's clock past every open order's time.
  it('settles an expired order PayU calls paid by retrieval, and cancels the one it does not', async () => {
    const paid = await orderCopy('Wygasla');
    const unpaid = await orderCopy('Nieoplacona');
    double.dropNextNotification();
    double.pay(paid.payuOrderId);
    app.clock.advance((app.config.payments.unpaidOrderMinutes + 1) * 60_000);
    const statusOf = async (orderId: number) => (await app.db('orders').where({ id: orderId }).first('status')).status as string;
    await eventually(
      'the expiry sweep',
      async () => (await statusOf(paid.orderId)) === 'COMPLETED' && (await statusOf(unpaid.orderId)) === 'CANCELED',
    );
    expect(await app.db('payments').where({ id: paid.paymentId }).first('status')).toEqual({ status: 'COMPLETED' });
    expect(await app.db('payments').where({ id: unpaid.paymentId }).first('status')).toEqual({ status: 'CANCELED' });
  });
});
