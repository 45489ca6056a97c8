import type { IncomingHttpHeaders } from 'node:http';
import type { Db } from '../../db';
import { readOpenPayuNotification } from '../openpayu-notification';
import { verifyOpenPayuSignature } from '../openpayu-signature';
import type { NotificationCheck, PaymentProvider } from '../provider';
import { PaymentProviderError } from '../provider';
import type { SandboxNotifier } from './notifier';
import { findCheckout, findRefundByExtId, insertCheckout, insertRefund, lockCheckout, refundedGrosze } from './repo';

/** Where the sandbox's hosted checkout page lives, under the portal (server/payments/sandbox/routes.ts). */
export const SANDBOX_PATH = '/payment-sandbox';

/**
 * The built-in payment provider (DECISIONS.md 12): it behaves like a real hosted checkout, so
 * the portal's payment code runs the same path as with PayU. A checkout is kept on the sandbox's
 * side; the patient decides on its own page (pay, cancel, leave pending), is sent back to the
 * portal's return address, and the portal hears the outcome only from a notification signed with
 * the second key, in PayU's shape, retried until answered 200.
 */
export function createSandboxProvider(deps: { db: Db; publicUrl: string; secondKey: string; notifier: SandboxNotifier }): PaymentProvider {
  const { db, publicUrl, secondKey, notifier } = deps;
  return {
    name: 'sandbox',

    async createCheckout(request) {
      const total = request.products.reduce((sum, product) => sum + product.unitPriceGrosze * product.quantity, 0);
      if (total !== request.amountGrosze || request.amountGrosze <= 0)
        throw new PaymentProviderError('sandbox: amounts do not add up', false);
      const id = await insertCheckout(db, {
        extOrderId: request.extOrderId,
        amountGrosze: request.amountGrosze,
        currency: request.currency,
        description: request.description,
        language: request.language,
        customerIp: request.customerIp,
        notifyUrl: request.notifyUrl,
        continueUrl: request.continueUrl,
      }).catch((error: unknown) => {
        // PayU answers ERROR_ORDER_NOT_UNIQUE for a repeated extOrderId; so does the sandbox.
        if ((error as { code?: string }).code === '23505') throw new PaymentProviderError('sandbox: ERROR_ORDER_NOT_UNIQUE', false);
        throw error;
      });
      return { providerOrderId: id, redirectUri: `${publicUrl}${SANDBOX_PATH}/${id}?lang=${request.language}` };
    },

    checkNotification(rawBody: Buffer, headers: IncomingHttpHeaders): NotificationCheck {
      const header = headers['openpayu-signature'];
      if (typeof header !== 'string' || header === '') return { verified: false, reason: 'missing_signature' };
      if (!verifyOpenPayuSignature(rawBody, header, secondKey)) return { verified: false, reason: 'bad_signature' };
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
      const checkout = /^[0-9a-f-]{36}$/.test(providerOrderId) ? await findCheckout(db, providerOrderId) : undefined;
      if (!checkout) throw new PaymentProviderError('sandbox: ORDER_NOT_FOUND', false);
      return {
        providerOrderId: checkout.id,
        extOrderId: checkout.extOrderId,
        status: checkout.status,
        amountGrosze: checkout.amountGrosze,
        currency: checkout.currency,
      };
    },

    async refund(providerOrderId, refund) {
      if (!/^[0-9a-f-]{36}$/.test(providerOrderId)) throw new PaymentProviderError('sandbox: ORDER_NOT_FOUND', false);
      // Checked and written under the checkout's lock, so two refunds at once cannot both take what is left.
      const created = await db.transaction(async (trx) => {
        const checkout = await lockCheckout(trx, providerOrderId);
        if (!checkout) throw new PaymentProviderError('sandbox: ORDER_NOT_FOUND', false);
        if (refund.extRefundId !== undefined) {
          // Like PayU: the same extRefundId asked again is the same refund, not a second one.
          const earlier = await findRefundByExtId(trx, checkout.id, refund.extRefundId);
          if (earlier && refund.amountGrosze !== undefined && refund.amountGrosze !== earlier.amountGrosze)
            throw new PaymentProviderError('sandbox: REFUND_IDEMPOTENCY_MISMATCH', false);
          if (earlier) return { refundId: earlier.id, isNew: false };
        }
        if (checkout.status !== 'COMPLETED') throw new PaymentProviderError('sandbox: TRANS_NOT_ENDED, nothing to refund', false);
        const left = checkout.amountGrosze - (await refundedGrosze(trx, checkout.id));
        const amount = refund.amountGrosze ?? left;
        if (left <= 0) throw new PaymentProviderError('sandbox: NO_BALANCE, nothing left to refund', false);
        if (!Number.isInteger(amount) || amount <= 0 || amount > left)
          throw new PaymentProviderError('sandbox: AMOUNT_TO_BIG, the refund exceeds what is left', false);
        const refundId = await insertRefund(trx, {
          checkoutId: checkout.id,
          amountGrosze: amount,
          description: refund.description,
          extRefundId: refund.extRefundId ?? null,
        }).catch((error: unknown) => {
          // ext_refund_id is unique across all checkouts, as PayU's is per point of sale.
          if ((error as { code?: string }).code === '23505') throw new PaymentProviderError('sandbox: REFUND_OUTER_ID_NOT_UNIQUE', false);
          throw error;
        });
        return { refundId, isNew: true };
      });
      if (created.isNew) await notifier.notify({ checkoutId: providerOrderId, refundId: created.refundId });
      return { refundId: created.refundId, status: 'PENDING' };
    },
  };
}
