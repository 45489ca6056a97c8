import type {
  ConsultationOrderRequest,
  OrderCreated,
  OrderRequest,
  OrderStatusView,
  PaymentConfirmation,
  PaymentRedirect,
  PaymentRequest,
} from '@common/types/orders';
import { api } from '../../lib/api';

/** The purchase calls of docs/api.md "Orders and payments" that the checkout and status pages make. */

export const createTranslationOrder = (body: OrderRequest) => api.post<OrderCreated>('/order', body);

export const createConsultationOrder = (body: ConsultationOrderRequest) => api.post<OrderCreated>('/order-consultation', body);

/** Opens (or reuses) the order's payment at the provider; the answer says where the browser goes. */
export const startPayment = (orderId: number, consultationRegistrationId?: number) =>
  api.post<PaymentRedirect>('/payment', { orderId, consultationRegistrationId } satisfies PaymentRequest);

export const cancelOrder = (orderId: number) => api.post<OrderStatusView>(`/order/${orderId}/cancel`);

export const orderStatusPath = (orderId: number) => `/order/${orderId}/status`;

/** The verified status of a payment: the browser's return from the checkout proves nothing. */
export const confirmPayment = (screeningId: number, paymentId: number) =>
  api.post<PaymentConfirmation>(`/screening/order-copy/payment-confirm/${screeningId}`, undefined, { query: { paymentId } });

/**
 * Leaves the app for the provider's hosted checkout (or, for a free order, the portal's own page):
 * a full page load, because the checkout is another site that returns to /payment on its own.
 */
export function goToCheckout(redirect: PaymentRedirect): void {
  window.location.assign(redirect.redirectUri);
}
