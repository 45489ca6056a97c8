import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPayuDouble, type PayuDouble } from '../../../tests/support/payu-double';
import { eventually } from '../../../tests/support/orders';
import { PaymentProviderError, type CheckoutRequest, type PaymentProvider } from '../provider';
import { createPayuProvider } from './adapter';
import { readPayuConfig } from './config';

let double: PayuDouble;
let payu: PaymentProvider;
/** Where the double posts notifications: a plain server keeping each body and header. */
let shop: { url: string; received: { raw: Buffer; headers: IncomingHttpHeaders }[]; close(): Promise<void> };

beforeAll(async () => {
  double = await startPayuDouble({ holdMs: 1_000 });
  shop = await startShop();
});
afterAll(async () => {
  await double?.close();
  await shop?.close();
});

let fresh = 0;
/** A new adapter (with an empty token cache) for each test, with a short timeout to see one fail quickly. */
function newAdapter(): PaymentProvider {
  return createPayuProvider(double.config, { timeoutMs: 300 });
}
afterEach(() => {
  payu = newAdapter();
});

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  fresh += 1;
  return {
    extOrderId: `ext-${Date.now()}-${fresh}`,
    description: 'Copy of the images, MP-000001',
    amountGrosze: 2100,
    currency: 'PLN',
    customerIp: '203.0.113.7',
    language: 'en',
    buyer: { email: 'anna@example.com', firstName: 'Anna', lastName: 'Testowa' },
    products: [{ name: 'Copy of the images', unitPriceGrosze: 2100, quantity: 1 }],
    notifyUrl: `${shop.url}/api/payments/notify/payu`,
    continueUrl: 'http://127.0.0.1:9/payment?paymentId=1',
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

describe('PayU adapter against the PayU double', () => {
  beforeAll(() => {
    payu = newAdapter();
  });

  it('fetches a token once and reuses it, however many calls start together', async () => {
    const before = double.tokensIssued();
    await Promise.all([payu.createCheckout(checkoutRequest()), payu.createCheckout(checkoutRequest())]);
    await payu.createCheckout(checkoutRequest());
    expect(double.tokensIssued() - before).toBe(1);
    const oauth = double.calls.filter((call) => call.path === '/pl/standard/user/oauth/authorize');
    expect(oauth.at(-1)).toEqual({ method: 'POST', path: '/pl/standard/user/oauth/authorize', status: 200 });
  });

  it('keeps a token that lives less than the renewal margin instead of fetching one per call', async () => {
    const shortLived = await startPayuDouble({ tokenSeconds: 30 });
    try {
      const adapter = createPayuProvider(shortLived.config);
      const started = await adapter.createCheckout(checkoutRequest());
      await adapter.retrieveOrder(started.providerOrderId);
      expect(shortLived.tokensIssued()).toBe(1);
    } finally {
      await shortLived.close();
    }
  });

  it('renews the token once after a 401 and repeats the call', async () => {
    const started = await payu.createCheckout(checkoutRequest());
    const before = double.tokensIssued();
    double.revokeTokens();
    const retrieved = await payu.retrieveOrder(started.providerOrderId);
    expect(retrieved.status).toBe('NEW');
    expect(double.tokensIssued() - before).toBe(1);
    const last = double.calls.slice(-3).map((call) => call.status);
    expect(last).toEqual([401, 200, 200]);
  });

  it('refuses wrong client credentials as a provider error that no retry mends', async () => {
    const wrong = createPayuProvider({ ...double.config, clientSecret: 'not-the-secret' });
    const error = await rejection(wrong.createCheckout(checkoutRequest()));
    expect(error.message).toBe('payu: OAuth answered 401 invalid_client');
    expect(error.retryable).toBe(false);
  });

  it('creates the order as documented and answers the redirect without following the 302', async () => {
    const request = checkoutRequest();
    const started = await payu.createCheckout(request);
    expect(double.calls.at(-1)).toEqual({ method: 'POST', path: '/api/v2_1/orders', status: 302 });
    expect(started.redirectUri).toBe(`${double.baseUrl}/pl/standard/co/summary?orderId=${started.providerOrderId}&lang=en`);
    expect(double.orders.get(started.providerOrderId)).toMatchObject({
      extOrderId: request.extOrderId,
      notifyUrl: request.notifyUrl,
      continueUrl: request.continueUrl,
      customerIp: '203.0.113.7',
      merchantPosId: double.config.posId,
      description: 'Copy of the images, MP-000001',
      currencyCode: 'PLN',
      totalAmount: '2100',
      buyer: { email: 'anna@example.com', firstName: 'Anna', lastName: 'Testowa', language: 'en' },
      products: [{ name: 'Copy of the images', unitPrice: '2100', quantity: '1' }],
      status: 'NEW',
    });
    // The checkout page was never fetched by the adapter: the buyer's browser goes there.
    expect(double.calls.some((call) => call.path === '/pl/standard/co/summary')).toBe(false);
  });

  it('surfaces PayU refusals with their status code: a repeated extOrderId, a value PayU refuses', async () => {
    const request = checkoutRequest();
    await payu.createCheckout(request);
    const duplicate = await rejection(payu.createCheckout(request));
    expect(duplicate.message).toBe('payu: order creation answered 400 ERROR_ORDER_NOT_UNIQUE');
    expect(duplicate.retryable).toBe(false);
    const wrongPos = createPayuProvider({ ...double.config, posId: '1' });
    const invalid = await rejection(wrongPos.createCheckout(checkoutRequest()));
    expect(invalid.message).toBe('payu: order creation answered 400 ERROR_VALUE_INVALID INVALID_MERCHANT_POS_ID');
    const badIp = await rejection(payu.createCheckout(checkoutRequest({ customerIp: 'localhost' })));
    expect(badIp.message).toBe('payu: order creation answered 400 ERROR_VALUE_INVALID');
  });

  it('surfaces a 500 and a call that never answers as retryable provider errors', async () => {
    double.failNext(1, 500, /^\/api\/v2_1\/orders$/);
    const failed = await rejection(payu.createCheckout(checkoutRequest()));
    expect(failed.message).toBe('payu: order creation answered 500 ERROR_INTERNAL');
    expect(failed.retryable).toBe(true);

    double.failNext(1, 'timeout', /^\/api\/v2_1\/orders$/);
    const startedAt = Date.now();
    const timedOut = await rejection(payu.createCheckout(checkoutRequest()));
    expect(timedOut.message).toBe('payu: /api/v2_1/orders not reachable (TimeoutError)');
    expect(timedOut.retryable).toBe(true);
    expect(Date.now() - startedAt).toBeLessThan(1_000);

    double.failNext(1, 500, /oauth/);
    const noToken = await rejection(newAdapter().createCheckout(checkoutRequest()));
    expect(noToken.message).toBe('payu: OAuth answered 500');
    expect(noToken.retryable).toBe(true);
  });

  it('retrieves an order and maps PayU statuses to the portal’s', async () => {
    const paid = await payu.createCheckout(checkoutRequest());
    double.pay(paid.providerOrderId);
    expect(await payu.retrieveOrder(paid.providerOrderId)).toEqual({
      providerOrderId: paid.providerOrderId,
      extOrderId: double.orders.get(paid.providerOrderId)!.extOrderId,
      status: 'COMPLETED',
      amountGrosze: 2100,
      currency: 'PLN',
    });
    const waiting = await payu.createCheckout(checkoutRequest());
    double.orders.get(waiting.providerOrderId)!.status = 'WAITING_FOR_CONFIRMATION';
    expect((await payu.retrieveOrder(waiting.providerOrderId)).status).toBe('PENDING');
    const cancelled = await payu.createCheckout(checkoutRequest());
    double.cancel(cancelled.providerOrderId);
    expect((await payu.retrieveOrder(cancelled.providerOrderId)).status).toBe('CANCELED');
    const unknown = await rejection(payu.retrieveOrder('NOSUCHORDER'));
    expect(unknown.message).toBe('payu: order retrieval answered 404 DATA_NOT_FOUND');
    await double.settled();
  });

  it('refunds partly and fully, and never more than was paid', async () => {
    const started = await payu.createCheckout(checkoutRequest());
    const notPaid = await rejection(payu.refund(started.providerOrderId, { description: 'Zwrot' }));
    expect(notPaid.message).toBe('payu: refund answered 400 OPENPAYU_BUSINESS_ERROR TRANS_NOT_ENDED');
    double.pay(started.providerOrderId);

    const partial = await payu.refund(started.providerOrderId, { description: 'Zwrot części', amountGrosze: 600, extRefundId: 'r-1' });
    expect(partial).toEqual({ refundId: expect.stringMatching(/^\d+$/), status: 'PENDING' });
    const again = await payu.refund(started.providerOrderId, { description: 'Zwrot części', amountGrosze: 600, extRefundId: 'r-1' });
    expect(again.refundId).toBe(partial.refundId);
    const tooMuch = await rejection(payu.refund(started.providerOrderId, { description: 'Za dużo', amountGrosze: 1600 }));
    expect(tooMuch.message).toBe('payu: refund answered 400 OPENPAYU_ERROR_VALUE_INVALID AMOUNT_TO_BIG');
    expect(tooMuch.retryable).toBe(false);
    const rest = await payu.refund(started.providerOrderId, { description: 'Reszta' });
    expect(double.orders.get(started.providerOrderId)!.refunds.map((refund) => [refund.amount, refund.description])).toEqual([
      ['600', 'Zwrot części'],
      ['1500', 'Reszta'],
    ]);
    const nothingLeft = await rejection(payu.refund(started.providerOrderId, { description: 'Jeszcze' }));
    expect(nothingLeft.message).toBe('payu: refund answered 400 OPENPAYU_BUSINESS_ERROR NO_BALANCE');

    // PayU tells the shop when the money went back: a signed refund notification the adapter reads.
    const received = shop.received.length;
    double.finalizeRefund(started.providerOrderId, rest.refundId);
    await double.settled();
    const notification = shop.received.slice(received).find((entry) => entry.raw.includes('"refund"'));
    expect(payu.checkNotification(notification!.raw, notification!.headers)).toEqual({
      verified: true,
      notification: {
        kind: 'refund',
        providerOrderId: started.providerOrderId,
        extOrderId: double.orders.get(started.providerOrderId)!.extOrderId,
        refundId: rest.refundId,
        refundStatus: 'FINALIZED',
        amountGrosze: 1500,
        currency: 'PLN',
      },
    });
  });

  it('verifies the double’s signed notifications (SHA-256 and MD5) and refuses forged ones', async () => {
    const started = await payu.createCheckout(checkoutRequest());
    const received = shop.received.length;
    double.leavePending(started.providerOrderId);
    await double.settled();
    const [pending] = shop.received.slice(received);
    expect(pending!.headers['openpayu-signature']).toMatch(/^sender=checkout;signature=[0-9a-f]{64};algorithm=SHA-256;content=DOCUMENT$/);
    expect(payu.checkNotification(pending!.raw, pending!.headers)).toMatchObject({
      verified: true,
      notification: { kind: 'order', providerOrderId: started.providerOrderId, status: 'PENDING', amountGrosze: 2100 },
    });
    expect(await double.sendForged(started.providerOrderId)).toBe(200);
    const forged = shop.received.at(-1)!;
    expect(payu.checkNotification(forged.raw, forged.headers)).toEqual({ verified: false, reason: 'bad_signature' });
    expect(payu.checkNotification(pending!.raw, {})).toEqual({ verified: false, reason: 'missing_signature' });

    const md5Double = await startPayuDouble({ algorithm: 'MD5' });
    try {
      const md5Payu = createPayuProvider(md5Double.config);
      const md5Order = await md5Payu.createCheckout(checkoutRequest());
      md5Double.pay(md5Order.providerOrderId);
      await md5Double.settled();
      const paid = shop.received.at(-1)!;
      expect(paid.headers['openpayu-signature']).toContain('algorithm=MD5');
      expect(md5Payu.checkNotification(paid.raw, paid.headers)).toMatchObject({ verified: true, notification: { status: 'COMPLETED' } });
    } finally {
      await md5Double.close();
    }
  });

  it('has the double retry a notification until the shop answers 200', async () => {
    const started = await payu.createCheckout(checkoutRequest());
    double.loseNextDeliveries(2);
    double.pay(started.providerOrderId);
    await eventually('the delivery', async () => double.deliveries.some((d) => d.orderId === started.providerOrderId && d.answer === 200));
    expect(double.deliveries.filter((d) => d.orderId === started.providerOrderId).map((d) => d.answer)).toEqual(['lost', 'lost', 200]);
  });
});

describe('PAYU_* configuration', () => {
  it('reads the variables, with PayU’s sandbox as the default address', () => {
    expect(readPayuConfig(double.env)).toEqual(double.config);
    const { PAYU_BASE_URL: _default, ...withoutUrl } = double.env;
    expect(readPayuConfig({ ...withoutUrl }).baseUrl).toBe('https://secure.snd.payu.com');
    expect(readPayuConfig({ ...double.env, PAYU_BASE_URL: `${double.baseUrl}/` }).baseUrl).toBe(double.baseUrl);
  });

  it('names every variable that is missing or wrong in one error', () => {
    const attempt = () =>
      readPayuConfig({ PAYU_BASE_URL: 'ftp://payu.example', PAYU_POS_ID: 'pos-1', PAYU_CLIENT_ID: double.config.clientId });
    expect(attempt).toThrow(/^PAYMENT_PROVIDER=payu needs its PAYU_\* settings \(/);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PAYU_BASE_URL', 'PAYU_POS_ID', 'PAYU_CLIENT_SECRET', 'PAYU_SECOND_KEY']) expect(message).toContain(`${name}:`);
    expect(message).not.toContain('PAYU_CLIENT_ID:');
    expect(message).toContain('must be the numeric POS id');
  });
});

async function startShop(): Promise<typeof shop> {
  const received: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"OK"}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
