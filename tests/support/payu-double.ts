import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { isIP } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { PayuConfig } from '../../server/payments/payu/config';
import { freePort } from './free-port';

/**
 * A local stand-in for PayU's REST API v2.1, written from PayU's published protocol and not from
 * our adapter, so the adapter and the portal can be tested against the wire format:
 * - OAuth client credentials (`POST /pl/standard/user/oauth/authorize`), tokens that expire and can
 *   be revoked, answered 401 `invalid_token` afterwards;
 * - `POST /api/v2_1/orders`: Bearer token, required fields, amounts as strings of grosze, the
 *   point of sale, a repeated extOrderId refused with ERROR_ORDER_NOT_UNIQUE; answered 302 with JSON;
 * - a hosted checkout the test drives (`pay`, `cancel`, `leavePending`), each change notified to
 *   the order's notifyUrl signed in `OpenPayu-Signature` (hash of body + second key), retried with
 *   a short backoff until answered 200;
 * - `GET /api/v2_1/orders/{id}` and `POST /api/v2_1/orders/{id}/refunds` (partial and full, never
 *   more than paid, idempotent per extRefundId);
 * - faults: 500 or no answer for the next N calls, a delivery lost on the way, a notification
 *   dropped, sent twice, forged, or with an amount that is not the order's.
 */

type PayuOrderStatus = 'NEW' | 'PENDING' | 'WAITING_FOR_CONFIRMATION' | 'COMPLETED' | 'CANCELED';
type Product = { name: string; unitPrice: string; quantity: string };

export type DoubleRefund = {
  refundId: string;
  extRefundId?: string;
  amount: string;
  currencyCode: string;
  description: string;
  creationDateTime: string;
  status: 'PENDING' | 'FINALIZED' | 'CANCELED';
  statusDateTime: string;
};

export type DoubleOrder = {
  orderId: string;
  extOrderId?: string;
  orderCreateDate: string;
  notifyUrl?: string;
  continueUrl?: string;
  customerIp: string;
  merchantPosId: string;
  description: string;
  currencyCode: string;
  totalAmount: string;
  buyer?: Record<string, unknown>;
  products: Product[];
  status: PayuOrderStatus;
  refunds: DoubleRefund[];
};

/** One attempt to deliver a notification: the shop's HTTP answer, or `lost` when it never got there. */
export type Delivery = {
  orderId: string;
  kind: 'order' | 'refund';
  status: string;
  attempt: number;
  answer: number | 'lost';
  forged: boolean;
};

export type PayuDoubleOptions = {
  posId?: string;
  secondKey?: string;
  /** How long a token lives (PayU: 43199 s). */
  tokenSeconds?: number;
  algorithm?: 'MD5' | 'SHA-256';
  /** Waits between delivery attempts; their count + 1 is how often a notification is tried. */
  retryDelaysMs?: number[];
  /** How long a call given the `timeout` fault is held before its connection is dropped. */
  holdMs?: number;
};

export type PayuDouble = {
  baseUrl: string;
  /** The adapter's settings pointing at the double, and the same as PAYU_* variables. */
  config: PayuConfig;
  env: Record<string, string>;
  orders: Map<string, DoubleOrder>;
  /** Every call to the API (OAuth included) with the status it was answered. */
  calls: { method: string; path: string; status: number }[];
  deliveries: Delivery[];
  tokensIssued(): number;
  /** Tokens issued so far stop working (expired or revoked at PayU's side); the next call gets 401. */
  revokeTokens(): void;
  /** The next `count` calls whose path matches answer 500, or never answer. */
  failNext(count: number, fault: 500 | 'timeout', path?: RegExp): void;
  /** The next `count` delivery attempts are lost in the network (the shop never sees them). */
  loseNextDeliveries(count: number): void;
  /** The next notification is never sent at all. */
  dropNextNotification(): void;
  /** The next notification is sent twice (each delivered until 200). */
  duplicateNextNotification(): void;
  /** The next order notification reports this totalAmount instead of the order's. */
  misreportNextAmount(totalAmount: string): void;
  pay(orderId: string): void;
  cancel(orderId: string): void;
  leavePending(orderId: string): void;
  finalizeRefund(orderId: string, refundId: string): void;
  /** Posts the order's notification signed with a key that is not the second key; the shop's answer. */
  sendForged(orderId: string, status?: PayuOrderStatus): Promise<number>;
  /** Resolves when every notification under way has been answered 200 or given up. */
  settled(): Promise<void>;
  close(): Promise<void>;
};

const ORDERS_PATH = '/api/v2_1/orders';

export async function startPayuDouble(options: PayuDoubleOptions = {}): Promise<PayuDouble> {
  const posId = options.posId ?? '300746';
  const clientId = posId;
  const clientSecret = randomBytes(16).toString('hex');
  const secondKey = options.secondKey ?? randomBytes(16).toString('hex');
  const algorithm = options.algorithm ?? 'SHA-256';
  const tokenSeconds = options.tokenSeconds ?? 43_199;
  const retryDelaysMs = options.retryDelaysMs ?? [20, 40, 80, 160, 320, 640];
  const holdMs = options.holdMs ?? 2_000;

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const tokens = new Map<string, number>();
  let issued = 0;
  const orders = new Map<string, DoubleOrder>();
  const calls: PayuDouble['calls'] = [];
  const deliveries: Delivery[] = [];
  const faults: { count: number; fault: 500 | 'timeout'; path?: RegExp }[] = [];
  const next = { lost: 0, drop: false, twice: false, amount: undefined as string | undefined };
  const underWay = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    res.on('finish', () => calls.push({ method: req.method, path: req.path, status: res.statusCode }));
    next();
  });
  app.use(injectFaults);
  app.post('/pl/standard/user/oauth/authorize', express.urlencoded({ extended: false }), authorize);
  app.use(ORDERS_PATH, requireToken, express.json({ type: () => true }));
  app.post(ORDERS_PATH, createOrder);
  app.get(`${ORDERS_PATH}/:orderId`, retrieveOrder);
  app.post(`${ORDERS_PATH}/:orderId/refunds`, createRefund);
  // The hosted checkout the buyer's browser is sent to; tests decide through pay/cancel/leavePending.
  app.get('/pl/standard/co/summary', (req, res) => {
    const order = orders.get(String(req.query.orderId));
    res
      .status(order ? 200 : 404)
      .type('html')
      .send(order ? `<h1>PayU double</h1><p>${order.totalAmount} ${order.currencyCode}</p>` : 'not found');
  });

  const server = app.listen(port, '127.0.0.1');
  await once(server, 'listening');

  function injectFaults(req: Request, res: Response, nextHandler: NextFunction): void {
    const fault = faults.find((candidate) => candidate.count > 0 && (!candidate.path || candidate.path.test(req.path)));
    if (!fault) return nextHandler();
    fault.count -= 1;
    if (fault.fault === 500) {
      res.status(500).json({ status: { statusCode: 'ERROR_INTERNAL', statusDesc: 'Internal error (injected)' } });
      return;
    }
    // No answer: the caller's own timeout has to give up; the connection is dropped later.
    const timer = setTimeout(() => {
      timers.delete(timer);
      req.socket.destroy();
    }, holdMs);
    timers.add(timer);
  }

  function authorize(req: Request, res: Response): void {
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    if (form.grant_type !== 'client_credentials') {
      res.status(400).json({ error: 'unsupported_grant_type', error_description: 'Unsupported grant type' });
      return;
    }
    if (form.client_id !== clientId || form.client_secret !== clientSecret) {
      res.status(401).json({ error: 'invalid_client', error_description: 'Bad client credentials' });
      return;
    }
    const token = randomUUID();
    tokens.set(token, Date.now() + tokenSeconds * 1000);
    issued += 1;
    res.json({ access_token: token, token_type: 'bearer', expires_in: tokenSeconds, grant_type: 'client_credentials' });
  }

  function requireToken(req: Request, res: Response, nextHandler: NextFunction): void {
    const match = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '');
    const expiresAt = match ? tokens.get(match[1]!) : undefined;
    if (expiresAt === undefined || expiresAt <= Date.now()) {
      res.status(401).json({ error: 'invalid_token', error_description: 'Invalid access token' });
      return;
    }
    nextHandler();
  }

  function refuse(res: Response, httpStatus: number, statusCode: string, statusDesc: string, codeLiteral?: string): void {
    res.status(httpStatus).json({ status: { statusCode, ...(codeLiteral && { codeLiteral }), statusDesc } });
  }

  function createOrder(req: Request, res: Response): void {
    const body = req.body as Record<string, unknown>;
    const problem = orderProblem(body);
    if (problem) return refuse(res, 400, problem.missing ? 'ERROR_VALUE_MISSING' : 'ERROR_VALUE_INVALID', problem.text);
    if (body.merchantPosId !== posId) return refuse(res, 400, 'ERROR_VALUE_INVALID', 'Invalid merchantPosId', 'INVALID_MERCHANT_POS_ID');
    const extOrderId = body.extOrderId as string | undefined;
    if (extOrderId !== undefined && [...orders.values()].some((order) => order.extOrderId === extOrderId)) {
      return refuse(res, 400, 'ERROR_ORDER_NOT_UNIQUE', 'Order with the given extOrderId already exists');
    }
    const orderId = randomBytes(13).toString('hex').toUpperCase().slice(0, 26);
    orders.set(orderId, {
      orderId,
      extOrderId,
      orderCreateDate: new Date().toISOString(),
      notifyUrl: body.notifyUrl as string | undefined,
      continueUrl: body.continueUrl as string | undefined,
      customerIp: body.customerIp as string,
      merchantPosId: posId,
      description: body.description as string,
      currencyCode: body.currencyCode as string,
      totalAmount: body.totalAmount as string,
      buyer: body.buyer as Record<string, unknown> | undefined,
      products: body.products as Product[],
      status: 'NEW',
      refunds: [],
    });
    const redirectUri = `${baseUrl}/pl/standard/co/summary?orderId=${orderId}&lang=${languageOf(body.buyer)}`;
    res
      .status(302)
      .location(redirectUri)
      .json({ status: { statusCode: 'SUCCESS' }, redirectUri, orderId, ...(extOrderId !== undefined && { extOrderId }) });
  }

  function retrieveOrder(req: Request, res: Response): void {
    const order = orders.get(String(req.params.orderId));
    if (!order) return refuse(res, 404, 'DATA_NOT_FOUND', 'Could not find data for given criteria.');
    const { refunds: _refunds, continueUrl: _continueUrl, ...shown } = order;
    res.json({ orders: [shown], status: { statusCode: 'SUCCESS', statusDesc: 'Request processing successful' } });
  }

  function createRefund(req: Request, res: Response): void {
    const order = orders.get(String(req.params.orderId));
    if (!order) return refuse(res, 404, 'DATA_NOT_FOUND', 'Could not find data for given criteria.');
    const refund = (req.body as { refund?: Record<string, unknown> }).refund;
    if (!refund) return refuse(res, 400, 'ERROR_VALUE_MISSING', 'Missing refund section', 'MISSING_REFUND_SECTION');
    if (typeof refund.description !== 'string' || refund.description === '')
      return refuse(res, 400, 'ERROR_VALUE_MISSING', 'Missing refund description');
    if (refund.amount !== undefined && !isGrosze(refund.amount))
      return refuse(res, 400, 'OPENPAYU_ERROR_VALUE_INVALID', 'Invalid amount', 'AMOUNT_TO_SMALL');
    const extRefundId = typeof refund.extRefundId === 'string' ? refund.extRefundId : undefined;
    const earlier = extRefundId === undefined ? undefined : order.refunds.find((candidate) => candidate.extRefundId === extRefundId);
    if (earlier) {
      // A repeated extRefundId is the same refund asked again: answered as before, unless it differs.
      if (refund.amount !== undefined && refund.amount !== earlier.amount)
        return refuse(res, 400, 'OPENPAYU_BUSINESS_ERROR', 'extRefundId reused with other values', 'REFUND_IDEMPOTENCY_MISMATCH');
      res.json({ orderId: order.orderId, refund: earlier, status: { statusCode: 'SUCCESS', statusDesc: 'Refund queued for processing' } });
      return;
    }
    if (order.status !== 'COMPLETED') return refuse(res, 400, 'OPENPAYU_BUSINESS_ERROR', 'Transaction not ended', 'TRANS_NOT_ENDED');
    const refunded = order.refunds.filter((r) => r.status !== 'CANCELED').reduce((sum, r) => sum + Number(r.amount), 0);
    const left = Number(order.totalAmount) - refunded;
    if (left <= 0) return refuse(res, 400, 'OPENPAYU_BUSINESS_ERROR', 'Nothing left to refund', 'NO_BALANCE');
    const amount = refund.amount === undefined ? left : Number(refund.amount);
    if (amount > left) return refuse(res, 400, 'OPENPAYU_ERROR_VALUE_INVALID', 'Amount too big', 'AMOUNT_TO_BIG');
    const now = new Date().toISOString();
    const created: DoubleRefund = {
      refundId: String(5_000_000_000 + issuedRefunds()),
      ...(extRefundId !== undefined && { extRefundId }),
      amount: String(amount),
      currencyCode: order.currencyCode,
      description: refund.description,
      creationDateTime: now,
      status: 'PENDING',
      statusDateTime: now,
    };
    order.refunds.push(created);
    res.json({ orderId: order.orderId, refund: created, status: { statusCode: 'SUCCESS', statusDesc: 'Refund queued for processing' } });
  }

  function issuedRefunds(): number {
    return [...orders.values()].reduce((sum, order) => sum + order.refunds.length, 0);
  }

  function sign(raw: string, key: string): string {
    const hash = createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
      .update(raw + key)
      .digest('hex');
    return `sender=checkout;signature=${hash};algorithm=${algorithm};content=DOCUMENT`;
  }

  function orderNotification(order: DoubleOrder, totalAmount = order.totalAmount): string {
    const { refunds: _refunds, continueUrl: _continueUrl, ...shown } = order;
    return JSON.stringify({
      order: { ...shown, totalAmount },
      ...(order.status === 'COMPLETED' && { localReceiptDateTime: new Date().toISOString() }),
      properties: [{ name: 'PAYMENT_ID', value: String(issued * 1000 + orders.size) }],
    });
  }

  async function attempt(url: string, raw: string, key: string): Promise<number | 'lost'> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json;charset=UTF-8', 'OpenPayu-Signature': sign(raw, key) },
        body: raw,
        signal: AbortSignal.timeout(5_000),
      });
      await response.body?.cancel();
      return response.status;
    } catch {
      return 'lost';
    }
  }

  /** PayU's delivery: tried until the shop answers 200, with growing waits, then given up. */
  async function deliver(order: DoubleOrder, kind: Delivery['kind'], status: string, raw: string): Promise<void> {
    for (let tried = 1; !closed && order.notifyUrl; tried++) {
      let answer: Delivery['answer'] = 'lost';
      if (next.lost > 0) next.lost -= 1;
      else answer = await attempt(order.notifyUrl, raw, secondKey);
      deliveries.push({ orderId: order.orderId, kind, status, attempt: tried, answer, forged: false });
      const delay = retryDelaysMs[tried - 1];
      if (answer === 200 || delay === undefined) return;
      await sleep(delay);
    }
  }

  function send(order: DoubleOrder, kind: Delivery['kind'], status: string, raw: string): void {
    if (next.drop) {
      next.drop = false;
      return;
    }
    const times = next.twice ? 2 : 1;
    next.twice = false;
    for (let i = 0; i < times; i++) {
      const delivery = deliver(order, kind, status, raw);
      underWay.add(delivery);
      void delivery.finally(() => underWay.delete(delivery));
    }
  }

  function decide(orderId: string, status: PayuOrderStatus): void {
    const order = orders.get(orderId);
    if (!order) throw new Error(`PayU double: no order ${orderId}`);
    // PayU's order moves on from NEW or PENDING only; a final one stays as it is.
    if (order.status !== 'NEW' && order.status !== 'PENDING') throw new Error(`PayU double: order ${orderId} is ${order.status}`);
    order.status = status;
    const raw = orderNotification(order, next.amount);
    next.amount = undefined;
    send(order, 'order', status, raw);
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  return {
    baseUrl,
    config: { baseUrl, posId, clientId, clientSecret, secondKey },
    env: {
      PAYU_BASE_URL: baseUrl,
      PAYU_POS_ID: posId,
      PAYU_CLIENT_ID: clientId,
      PAYU_CLIENT_SECRET: clientSecret,
      PAYU_SECOND_KEY: secondKey,
    },
    orders,
    calls,
    deliveries,
    tokensIssued: () => issued,
    revokeTokens: () => tokens.clear(),
    failNext: (count, fault, path) => void faults.push({ count, fault, path }),
    loseNextDeliveries: (count) => void (next.lost += count),
    dropNextNotification: () => void (next.drop = true),
    duplicateNextNotification: () => void (next.twice = true),
    misreportNextAmount: (totalAmount) => void (next.amount = totalAmount),
    pay: (orderId) => decide(orderId, 'COMPLETED'),
    cancel: (orderId) => decide(orderId, 'CANCELED'),
    leavePending: (orderId) => decide(orderId, 'PENDING'),
    finalizeRefund(orderId, refundId) {
      const order = orders.get(orderId);
      const refund = order?.refunds.find((candidate) => candidate.refundId === refundId);
      if (!order || !refund) throw new Error(`PayU double: no refund ${refundId} of ${orderId}`);
      refund.status = 'FINALIZED';
      refund.statusDateTime = new Date().toISOString();
      const raw = JSON.stringify({ orderId, extOrderId: order.extOrderId, refund });
      send(order, 'refund', 'FINALIZED', raw);
    },
    async sendForged(orderId, status = 'COMPLETED') {
      const order = orders.get(orderId);
      if (!order?.notifyUrl) throw new Error(`PayU double: no order ${orderId} with a notifyUrl`);
      const answer = await attempt(order.notifyUrl, orderNotification({ ...order, status }), `forged-${secondKey}`);
      deliveries.push({ orderId, kind: 'order', status, attempt: 1, answer, forged: true });
      if (answer === 'lost') throw new Error('PayU double: the forged notification was not answered');
      return answer;
    },
    async settled() {
      while (underWay.size > 0) await Promise.all(underWay);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** PayU wants amounts as strings of the currency's smallest unit (grosze), never numbers. */
function isGrosze(value: unknown): value is string {
  return typeof value === 'string' && /^[1-9]\d{0,11}$/.test(value);
}

function languageOf(buyer: unknown): string {
  const language = (buyer as { language?: unknown } | undefined)?.language;
  return typeof language === 'string' ? language : 'pl';
}

/** The first thing PayU would refuse in an order: a required field missing, or a value in the wrong form. */
function orderProblem(body: Record<string, unknown>): { missing: boolean; text: string } | undefined {
  const missing = ['customerIp', 'merchantPosId', 'description', 'currencyCode', 'totalAmount', 'products'].find(
    (field) => body[field] === undefined || body[field] === '',
  );
  if (missing) return { missing: true, text: `Missing required field: ${missing}` };
  if (typeof body.customerIp !== 'string' || isIP(body.customerIp) === 0) return { missing: false, text: 'Invalid customerIp' };
  if (typeof body.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(body.currencyCode))
    return { missing: false, text: 'Invalid currencyCode' };
  if (!isGrosze(body.totalAmount)) return { missing: false, text: 'Invalid totalAmount: a string of the smallest currency unit' };
  for (const url of ['notifyUrl', 'continueUrl'] as const) {
    if (body[url] !== undefined && (typeof body[url] !== 'string' || !URL.canParse(body[url])))
      return { missing: false, text: `Invalid ${url}` };
  }
  if (body.buyer !== undefined) {
    const buyer = body.buyer as Record<string, unknown>;
    if (typeof buyer.email !== 'string' || !buyer.email.includes('@'))
      return { missing: true, text: 'Missing required field: buyer.email' };
  }
  const products = body.products;
  if (!Array.isArray(products) || products.length === 0) return { missing: true, text: 'Missing required field: products' };
  for (const product of products as Record<string, unknown>[]) {
    if (typeof product.name !== 'string' || product.name === '') return { missing: true, text: 'Missing required field: products.name' };
    if (!isGrosze(product.unitPrice)) return { missing: false, text: 'Invalid products.unitPrice' };
    if (typeof product.quantity !== 'string' || !/^[1-9]\d*$/.test(product.quantity))
      return { missing: false, text: 'Invalid products.quantity' };
  }
  return undefined;
}
