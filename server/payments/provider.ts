import type { IncomingHttpHeaders } from 'node:http';

/**
 * The one interface every payment provider adapter implements (DECISIONS.md 12): the built-in
 * sandbox (server/payments/sandbox) and PayU REST API v2.1 (server/payments/payu). The orders area
 * speaks only this.
 */
export type PortalPaymentStatus = 'NEW' | 'PENDING' | 'COMPLETED' | 'CANCELED';

export type CheckoutRequest = {
  /** Ours, unique per checkout attempt (PayU's extOrderId). */
  extOrderId: string;
  description: string;
  amountGrosze: number;
  currency: string;
  customerIp: string;
  language: 'pl' | 'en';
  buyer: { email: string; firstName: string; lastName: string };
  products: { name: string; unitPriceGrosze: number; quantity: number }[];
  notifyUrl: string;
  continueUrl: string;
};

type CheckoutStarted = { providerOrderId: string; redirectUri: string };

/** A notification whose signature verified, read into the portal's terms. */
export type PaymentNotification =
  | { kind: 'order'; providerOrderId: string; extOrderId: string; status: PortalPaymentStatus; amountGrosze: number; currency: string }
  | {
      kind: 'refund';
      providerOrderId: string;
      extOrderId: string | null;
      refundId: string;
      refundStatus: 'PENDING' | 'FINALIZED' | 'CANCELED';
      amountGrosze: number;
      currency: string;
    }
  | { kind: 'other' };

export type NotificationCheck =
  { verified: true; notification: PaymentNotification } | { verified: false; reason: 'missing_signature' | 'bad_signature' | 'malformed' };

type ProviderOrder = {
  providerOrderId: string;
  extOrderId: string | null;
  status: PortalPaymentStatus;
  amountGrosze: number;
  currency: string;
};

type RefundStarted = { refundId: string; status: 'PENDING' | 'FINALIZED' | 'CANCELED' };

export interface PaymentProvider {
  readonly name: 'sandbox' | 'payu';
  createCheckout(request: CheckoutRequest): Promise<CheckoutStarted>;
  /** Checks the signature over the raw body bytes in constant time, then reads the body. Never throws. */
  checkNotification(rawBody: Buffer, headers: IncomingHttpHeaders): NotificationCheck;
  retrieveOrder(providerOrderId: string): Promise<ProviderOrder>;
  refund(providerOrderId: string, refund: { description: string; amountGrosze?: number; extRefundId?: string }): Promise<RefundStarted>;
}

/** The provider could not be reached or answered an error: the caller answers 503 NO_CONNECTION. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
