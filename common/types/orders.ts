/**
 * Orders and payments (docs/api.md "Orders and payments"): what the portal sells, the orders a
 * patient places for her screenings, and their payments. Shared by the server and the client.
 */
import type { PaymentStatus, ShipmentStatus } from './screenings';

export type { PaymentStatus, ShipmentStatus };

/** A text the catalog cannot hold because it is data (a product's name): both languages. */
export type LocalizedText = { pl: string; en: string };

export type ProductKind = 'copy' | 'translation_en' | 'translation_de' | 'consultation';

/** Amounts are integers in grosze (1/100 PLN) with their currency; never floats. */
export type Money = { amountGrosze: number; currency: string };

/** `GET /api/products` answers `Product[]`: the active products, copy first. */
export type Product = {
  id: number;
  code: string;
  kind: ProductKind;
  name: LocalizedText;
  description: LocalizedText;
  price: Money;
};

/** `GET /api/consultations` answers `ConsultationSlot[]`: free future slots, earliest first. */
export type ConsultationSlot = {
  id: number;
  /** ISO 8601 UTC; shown in the patient's time zone. */
  startsAt: string;
  durationMinutes: number;
  radiologistName: string;
};

/** `POST /api/order`: a translated description of `documentId` (a description of `screeningId`). */
export type OrderRequest = { screeningId: number; productId: number; documentId: string; language: 'pl' | 'en' };

/** `POST /api/order-consultation`: `userId` must be the signed-in patient's own id. */
export type ConsultationOrderRequest = {
  screeningId: number;
  productId: number;
  consultationRegistrationId: number;
  userId: number;
  language: 'pl' | 'en';
};

/** Answer of `POST /api/order` and `POST /api/order-consultation` (201). */
export type OrderCreated = {
  orderId: number;
  /** Until when the order waits for its payment (a consultation's slot is held until then); ISO 8601 UTC. */
  expiresAt: string;
  price: Money;
};

/** `POST /api/payment`: start (or continue) paying an order; `consultationRegistrationId` must be the order's slot when given. */
export type PaymentRequest = { orderId: number; consultationRegistrationId?: number | null };

/**
 * Answer of `POST /api/payment` and `POST /api/screening/order-copy/{id}`: where the browser goes
 * next. The provider's hosted checkout (absolute URL), or, for an order that costs nothing, the
 * portal's own success page (a path starting with `/`).
 */
export type PaymentRedirect = { redirectUri: string; orderId: number; paymentId: number | null };

/** `GET /api/order/{id}/status` (spec section 3, "Order status view"). */
export type OrderStatusView = {
  status: PaymentStatus;
  order: {
    id: number;
    /** What the patient quotes to the provider, e.g. "MP-000042". */
    number: string;
    screeningId: number;
    portalProduct: { code: string; kind: ProductKind; name: LocalizedText; description: LocalizedText };
    price: Money;
    shipmentStatus: ShipmentStatus;
    done: boolean;
    createdAt: string;
    /** While unpaid: when it is cancelled unless paid; null once paid or cancelled. */
    expiresAt: string | null;
    /** A consultation's slot. */
    consultation: ConsultationSlot | null;
    /** Unpaid and not expired: she may pay again or cancel. */
    canPay: boolean;
    canCancel: boolean;
  };
};

/** `POST /api/screening/order-copy/payment-confirm/{id}?paymentId&success` answers the verified status. */
export type PaymentConfirmation = { status: PaymentStatus; orderId: number; screeningId: number };
