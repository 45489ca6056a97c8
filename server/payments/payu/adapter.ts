import type { IncomingHttpHeaders } from 'node:http';
import { readOpenPayuNotification, portalStatusOf } from '../openpayu-notification';
import { verifyOpenPayuSignature } from '../openpayu-signature';
import { PaymentProviderError, type NotificationCheck, type PaymentProvider } from '../provider';
import type { PayuConfig } from './config';

/** A PayU call that does not answer within this is given up (the caller may retry). */
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * A token is renewed this long before PayU says it expires, or after half its life when it lives
 * shorter: a fixed margin longer than a short-lived token would renew it on every call.
 */
const TOKEN_MARGIN_MS = 60_000;

type Token = { value: string; expiresAt: number };
type PayuStatus = { statusCode?: string; codeLiteral?: string };

export type PayuProviderOptions = {
  fetch?: typeof fetch;
  clock?: () => number;
  /** Per call to PayU; REQUEST_TIMEOUT_MS unless a test wants to see a timeout quickly. */
  timeoutMs?: number;
};

/** PayU's answers a later attempt may get past: its own failures and "too many requests". */
const isRetryable = (status: number) => status >= 500 || status === 429;

/**
 * PayU REST API v2.1 (https://developers.payu.com/europe/api/): OAuth client credentials,
 * `POST /api/v2_1/orders` answered 302 with JSON (the redirect is not followed: the buyer's
 * browser goes there), order retrieval and refunds, and notifications signed with the second key
 * in `OpenPayu-Signature`. Amounts travel as strings of grosze.
 */
export function createPayuProvider(config: PayuConfig, options: PayuProviderOptions = {}): PaymentProvider {
  const request = options.fetch ?? fetch;
  const clock = options.clock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  let token: Token | undefined;
  /** The token request under way: calls that start together wait for one token, not one each. */
  let tokenRequest: Promise<string> | undefined;

  async function call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await request(`${config.baseUrl}${path}`, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PaymentProviderError(`payu: ${path} not reachable (${error instanceof Error ? error.name : 'error'})`, true);
    }
  }

  /** The cached token; `rejected` is one PayU refused (401), renewed unless another call already did. */
  async function accessToken(rejected?: string): Promise<string> {
    if (token && token.value !== rejected && token.expiresAt > clock()) return token.value;
    tokenRequest ??= fetchToken().finally(() => (tokenRequest = undefined));
    return tokenRequest;
  }

  async function fetchToken(): Promise<string> {
    const response = await call('/pl/standard/user/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }).toString(),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string };
    if (!response.ok || typeof body.access_token !== 'string' || body.access_token === '')
      throw new PaymentProviderError(`payu: OAuth answered ${response.status} ${body.error ?? ''}`.trim(), isRetryable(response.status));
    // Without a lifetime the token serves this call only; with one it is kept until shortly before it ends.
    const lifetimeMs = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 0;
    token = { value: body.access_token, expiresAt: clock() + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2) };
    return token.value;
  }

  /** An authorized call; a 401 means the token was revoked or expired early: renewed once. */
  async function authorized(path: string, init: RequestInit): Promise<Response> {
    const send = (bearer: string) =>
      call(path, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${bearer}` } });
    const first = await accessToken();
    const response = await send(first);
    if (response.status !== 401) return response;
    await response.body?.cancel();
    return send(await accessToken(first));
  }

  async function readJson<T>(response: Response, what: string): Promise<T & { status?: PayuStatus }> {
    const body = (await response.json().catch(() => undefined)) as (T & { status?: PayuStatus }) | undefined;
    if (!body) throw new PaymentProviderError(`payu: ${what} answered ${response.status} without JSON`, isRetryable(response.status));
    return body;
  }

  function failure(what: string, response: Response, status: PayuStatus | undefined): PaymentProviderError {
    // Only PayU's status code and code literal (ERROR_VALUE_INVALID AMOUNT_TO_BIG): what an operator
    // needs, never a description or body that could carry the buyer's data.
    const codes = [status?.statusCode, status?.codeLiteral].filter((code) => typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code));
    return new PaymentProviderError(`payu: ${what} answered ${[response.status, ...codes].join(' ')}`, isRetryable(response.status));
  }

  return {
    name: 'payu',

    async createCheckout(order) {
      const response = await authorized('/api/v2_1/orders', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          notifyUrl: order.notifyUrl,
          continueUrl: order.continueUrl,
          customerIp: order.customerIp,
          merchantPosId: config.posId,
          description: order.description,
          currencyCode: order.currency,
          totalAmount: String(order.amountGrosze),
          extOrderId: order.extOrderId,
          buyer: { ...order.buyer, language: order.language },
          products: order.products.map((product) => ({
            name: product.name,
            unitPrice: String(product.unitPriceGrosze),
            quantity: String(product.quantity),
          })),
        }),
      });
      // PayU answers 302 (or 201 for some payment methods) with JSON; the Location is for the browser.
      const body = await readJson<{ redirectUri?: string; orderId?: string }>(response, 'order creation');
      const ok = (response.status === 302 || response.status === 201 || response.status === 200) && body.status?.statusCode === 'SUCCESS';
      if (!ok || !body.redirectUri || !body.orderId) throw failure('order creation', response, body.status);
      return { providerOrderId: body.orderId, redirectUri: body.redirectUri };
    },

    checkNotification(rawBody: Buffer, headers: IncomingHttpHeaders): NotificationCheck {
      const header = headers['openpayu-signature'];
      if (typeof header !== 'string' || header === '') return { verified: false, reason: 'missing_signature' };
      if (!verifyOpenPayuSignature(rawBody, header, config.secondKey)) return { verified: false, reason: 'bad_signature' };
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { verified: false, reason: 'malformed' };
      }
      const notification = readOpenPayuNotification(body);
      return notification ? { verified: true, notification } : { verified: false, reason: 'malformed' };
    },

    async retrieveOrder(providerOrderId) {
      const response = await authorized(`/api/v2_1/orders/${encodeURIComponent(providerOrderId)}`, { method: 'GET' });
      const body = await readJson<{
        orders?: { orderId: string; extOrderId?: string; status: string; totalAmount: string; currencyCode: string }[];
      }>(response, 'order retrieval');
      const order = body.orders?.[0];
      const status = order ? portalStatusOf(order.status) : null;
      const amountValid = typeof order?.totalAmount === 'string' && /^\d{1,12}$/.test(order.totalAmount);
      if (!response.ok || !order || !status || !amountValid) throw failure('order retrieval', response, body.status);
      return {
        providerOrderId: order.orderId,
        extOrderId: order.extOrderId ?? null,
        status,
        amountGrosze: Number(order.totalAmount),
        currency: order.currencyCode,
      };
    },

    async refund(providerOrderId, refund) {
      const response = await authorized(`/api/v2_1/orders/${encodeURIComponent(providerOrderId)}/refunds`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          refund: {
            description: refund.description,
            ...(refund.amountGrosze !== undefined && { amount: String(refund.amountGrosze) }),
            ...(refund.extRefundId !== undefined && { extRefundId: refund.extRefundId }),
          },
        }),
      });
      const body = await readJson<{ refund?: { refundId: string; status: string } }>(response, 'refund');
      if (!response.ok || !body.refund || body.status?.statusCode !== 'SUCCESS') throw failure('refund', response, body.status);
      const status = body.refund.status === 'FINALIZED' || body.refund.status === 'CANCELED' ? body.refund.status : 'PENDING';
      return { refundId: body.refund.refundId, status };
    },
  };
}
