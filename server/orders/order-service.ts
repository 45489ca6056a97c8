import { ZodError } from 'zod';
import type { ConsultationSlot, OrderCreated, OrderStatusView, PaymentRedirect, Product } from '../../common/types/orders';
import type { CopyOrderForm } from '../../common/validation/order-copy';
import type { ConsultationOrderBody, TranslationOrderBody } from '../../common/validation/orders';
import { AppError } from '../lib/errors';
import type { RequestContext } from '../lib/principal';
import { findDocument, findPatientScreening, ownedScreeningId, patientIdOf, refuse } from '../screenings';
import { findActiveProduct, findActiveProductByCode, findSlot, listActiveProducts, listFreeSlots } from './catalog-repo';
import { createOrderEvents, orderNumber } from './order-events';
import { cityInProvince } from './address-repo';
import { findBuyer, findOpenOrderId, findOrder, insertCopyDetails, insertOrder, lockScreening, type OrderRow } from './orders-repo';
import { createPaymentService, type PaymentDeps } from './payment-service';
import { findLatestPayment, findPayment } from './payments-repo';

export type OrderDeps = PaymentDeps;

/** The copy of records without images is free; with the images on a disc it is the copy fee (DECISIONS.md 2). */
const COPY_WITH_IMAGES = 'copy-of-images';
const COPY_WITHOUT_IMAGES = 'copy-of-records';
/** The checkout lists this many free consultation slots at most, earliest first. */
const SLOTS_SHOWN = 60;

const ORDER_UNAUTHORIZED = 'ORDER_UNAUTHORIZED';

/** One field's message, answered like the shared schemas' own (400 VALIDATION with its path). */
function fieldError(path: string[], message: string): ZodError {
  return new ZodError([{ code: 'custom', path, message, input: undefined }]);
}

/**
 * The patient's purchases (spec sections 2-5, DECISIONS.md 2-4, 17): copies of her records,
 * translated descriptions and consultations, each for one of her own screenings.
 */
export function createOrderService(deps: OrderDeps) {
  const { db, config, clock } = deps;
  const payments = createPaymentService(deps);
  const events = createOrderEvents(deps);
  const now = () => new Date(clock());
  const minutesFromNow = (minutes: number) => new Date(clock() + minutes * 60_000);

  /** Her own order, or the 404 of DECISIONS.md 4 with the attempt in her log. */
  async function ownOrder(context: RequestContext, orderId: number): Promise<OrderRow> {
    const userId = await patientIdOf(db, context, ORDER_UNAUTHORIZED, `order ${orderId}`);
    const order = await findOrder(db, orderId);
    if (!order || order.userId !== userId) return refuse(db, context, ORDER_UNAUTHORIZED, `order ${orderId}`);
    return order;
  }

  async function ownScreening(context: RequestContext, screeningId: number): Promise<{ userId: number; screeningId: number }> {
    const userId = await patientIdOf(db, context, ORDER_UNAUTHORIZED, `screening ${screeningId}`);
    return { userId, screeningId: await ownedScreeningId(db, context, screeningId, ORDER_UNAUTHORIZED) };
  }

  async function copyProducts(): Promise<{ withImages: Product; withoutImages: Product | null }> {
    const withImages = await findActiveProductByCode(db, COPY_WITH_IMAGES);
    if (!withImages) throw new AppError(409, 'PRODUCT_UNAVAILABLE');
    return { withImages, withoutImages: (await findActiveProductByCode(db, COPY_WITHOUT_IMAGES)) ?? null };
  }

  async function created(order: OrderRow, context: RequestContext): Promise<OrderRow> {
    await events.record(order, { type: 'ORDER', ip: context.ip }, 'received');
    return order;
  }

  async function statusView(order: OrderRow): Promise<OrderStatusView> {
    const slot = order.consultationSlotId === null ? null : ((await findSlot(db, order.consultationSlotId)) ?? null);
    const unpaid = order.status === 'NEW' || order.status === 'PENDING';
    return {
      status: order.status,
      order: {
        id: order.id,
        number: orderNumber(order.id),
        screeningId: order.screeningId,
        portalProduct: { code: order.productCode, kind: order.productKind, name: order.productName, description: order.productDescription },
        price: { amountGrosze: order.priceGrosze, currency: order.currency },
        shipmentStatus: order.shipmentStatus,
        done: order.done,
        createdAt: order.createdAt.toISOString(),
        expiresAt: unpaid && order.expiresAt ? order.expiresAt.toISOString() : null,
        consultation: slot,
        canPay: payments.isPayable(order),
        canCancel: unpaid,
      },
    };
  }

  return {
    products: (): Promise<Product[]> => listActiveProducts(db),

    consultations: (): Promise<ConsultationSlot[]> => listFreeSlots(db, now(), SLOTS_SHOWN),

    /** What the copy-order form shows before she fills it in. */
    async copyOrderForm(context: RequestContext, screeningId: number) {
      const owned = await ownScreening(context, screeningId);
      const screening = await findPatientScreening(db, owned.userId, owned.screeningId);
      const buyer = await findBuyer(db, owned.userId);
      const openOrderId = (await findOpenOrderId(db, owned.screeningId)) ?? null;
      return {
        screeningId: owned.screeningId,
        examinedAt: screening ? new Date(screening.createdAt).toISOString() : null,
        healthCareInstitution: config.provider.legalName,
        email: buyer.email,
        products: await copyProducts(),
        canOrder: openOrderId === null,
        openOrderId,
      };
    },

    /**
     * A copy of her records. While any order of the screening is not done, another is "Such order
     * already exist" (spec section 4), decided under a lock of the screening so two tabs cannot
     * both pass. With the images it costs the copy fee and goes on to the checkout; without, it is
     * free and needs no payment.
     */
    async createCopyOrder(context: RequestContext, screeningId: number, form: CopyOrderForm): Promise<PaymentRedirect> {
      const owned = await ownScreening(context, screeningId);
      if (form.address && !(await cityInProvince(db, form.address.cityId, form.address.provinceId))) {
        throw fieldError(['address', 'city'], 'orderCopy.validation.city.required');
      }
      const products = await copyProducts();
      const product = form.requestDigitalImage || !products.withoutImages ? products.withImages : products.withoutImages;
      const free = product.price.amountGrosze === 0;
      const orderId = await db.transaction(async (trx) => {
        await lockScreening(trx, owned.screeningId);
        if ((await findOpenOrderId(trx, owned.screeningId)) !== undefined) throw new AppError(409, 'ORDER_ALREADY_EXISTS');
        const id = await insertOrder(trx, {
          userId: owned.userId,
          screeningId: owned.screeningId,
          productId: product.id,
          priceGrosze: product.price.amountGrosze,
          currency: product.price.currency,
          status: free ? 'COMPLETED' : 'NEW',
          shipmentStatus: free ? 'awaiting' : 'not_applicable',
          language: form.language,
          createdAt: now(),
          expiresAt: free ? null : minutesFromNow(config.payments.unpaidOrderMinutes),
        });
        await insertCopyDetails(trx, id, { ...form, healthCareInstitution: config.provider.legalName });
        return id;
      });
      const order = await created((await findOrder(db, orderId))!, context);
      if (free) return { redirectUri: `/order/${order.id}/status`, orderId: order.id, paymentId: null };
      return payments.checkout(context, order);
    },

    /** A translation of one of the screening's descriptions into English or German. */
    async createTranslationOrder(context: RequestContext, body: TranslationOrderBody): Promise<OrderCreated> {
      const owned = await ownScreening(context, body.screeningId);
      const product = await findActiveProduct(db, body.productId);
      if (!product || (product.kind !== 'translation_en' && product.kind !== 'translation_de')) {
        throw fieldError(['productId'], 'order.validation.product');
      }
      const document = await findDocument(db, body.documentId);
      if (!document || document.screeningId !== owned.screeningId || document.kind !== 'description') {
        throw fieldError(['documentId'], 'order.validation.document');
      }
      const id = await insertOrder(db, {
        userId: owned.userId,
        screeningId: owned.screeningId,
        productId: product.id,
        documentId: document.id,
        priceGrosze: product.price.amountGrosze,
        currency: product.price.currency,
        status: 'NEW',
        shipmentStatus: 'not_applicable',
        language: body.language,
        createdAt: now(),
        expiresAt: minutesFromNow(config.payments.unpaidOrderMinutes),
      });
      const order = await created((await findOrder(db, id))!, context);
      return { orderId: order.id, expiresAt: order.expiresAt!.toISOString(), price: product.price };
    },

    /**
     * A consultation in a free slot, held for her while she pays (CONSULTATION_HOLD_MINUTES). The
     * unique index `orders_slot_taken` decides between patients who choose one slot at once.
     */
    async createConsultationOrder(context: RequestContext, body: ConsultationOrderBody): Promise<OrderCreated> {
      const owned = await ownScreening(context, body.screeningId);
      if (body.userId !== owned.userId) return refuse(db, context, ORDER_UNAUTHORIZED, `user ${body.userId}`);
      const product = await findActiveProduct(db, body.productId);
      if (!product || product.kind !== 'consultation') throw fieldError(['productId'], 'order.validation.product');
      const slot = await findSlot(db, body.consultationRegistrationId);
      if (!slot || new Date(slot.startsAt) <= now()) throw new AppError(409, 'SLOT_TAKEN');
      const id = await insertOrder(db, {
        userId: owned.userId,
        screeningId: owned.screeningId,
        productId: product.id,
        consultationSlotId: slot.id,
        priceGrosze: product.price.amountGrosze,
        currency: product.price.currency,
        status: 'NEW',
        shipmentStatus: 'not_applicable',
        language: body.language,
        createdAt: now(),
        expiresAt: minutesFromNow(config.payments.consultationHoldMinutes),
      });
      const order = await created((await findOrder(db, id))!, context);
      return { orderId: order.id, expiresAt: order.expiresAt!.toISOString(), price: product.price };
    },

    /** `POST /payment`: start or continue paying her order. */
    async pay(context: RequestContext, orderId: number, slotId: number | null | undefined): Promise<PaymentRedirect> {
      const order = await ownOrder(context, orderId);
      if (slotId !== undefined && slotId !== null && slotId !== order.consultationSlotId) {
        throw fieldError(['consultationRegistrationId'], 'order.validation.slot');
      }
      return payments.checkout(context, order);
    },

    async cancel(context: RequestContext, orderId: number): Promise<OrderStatusView> {
      const order = await ownOrder(context, orderId);
      if (!(await payments.cancelUnpaid(order.id, 'cancelled', context.ip))) throw new AppError(409, 'ORDER_NOT_PAYABLE');
      return statusView((await findOrder(db, order.id))!);
    },

    async status(context: RequestContext, orderId: number): Promise<OrderStatusView> {
      const order = await ownOrder(context, orderId);
      await payments.refresh(await findLatestPayment(db, order.id));
      return statusView((await findOrder(db, order.id))!);
    },

    /** The after-payment page: the status of her payment for an order of this screening. */
    async confirmPayment(context: RequestContext, screeningId: number, paymentId: number) {
      const owned = await ownScreening(context, screeningId);
      const payment = await findPayment(db, paymentId);
      const order = payment ? await findOrder(db, payment.orderId) : undefined;
      if (!order || order.userId !== owned.userId || order.screeningId !== owned.screeningId) {
        return refuse(db, context, ORDER_UNAUTHORIZED, `payment ${paymentId}`);
      }
      return payments.confirm(order, paymentId);
    },

    payments,
  };
}
