import { z } from 'zod';
import { MAX_ID } from '../lib/parse';
import { defineEndpoint, type ProviderEndpoint } from '../provider/endpoint';
import type { AdminProduct, AdminSlot } from './catalog-admin-repo';
import { createCatalogAdminService, type CatalogAdminDeps } from './catalog-admin-service';
import type { FulfilmentOrder } from './fulfilment-repo';
import { createFulfilmentService, MAX_PAGE, SETTABLE_SHIPMENT_STATUSES, type FulfilmentDeps } from './fulfilment-service';
import { orderNumber } from './order-events';

export type OrderEndpointDeps = FulfilmentDeps & CatalogAdminDeps;

const ORDERS_TAG = 'Orders';
const CATALOG_TAG = 'Catalog';

const PAYMENT_STATUSES = ['NEW', 'PENDING', 'COMPLETED', 'CANCELED'] as const;
const SHIPMENT_STATUSES = ['not_applicable', 'awaiting', 'prepared', 'sent', 'delivered', 'collected'] as const;
const PRODUCT_KINDS = ['copy', 'translation_en', 'translation_de', 'consultation'] as const;

/** A portal id of the path; one that cannot name a row is answered 404, like an unknown one. */
const serialParam = (description: string) => z.coerce.number().int().min(1).max(MAX_ID).catch(0).describe(description);

const money = z.object({ amountGrosze: z.number().int().describe('In grosze (1/100 PLN).'), currency: z.string() });

const orderSchema = z
  .object({
    id: z.number().int().describe("The portal's order id."),
    number: z.string().describe('What the patient quotes, e.g. MP-000042.'),
    kind: z.enum(PRODUCT_KINDS),
    productCode: z.string(),
    status: z.enum(PAYMENT_STATUSES).describe('Payment status of the order.'),
    shipmentStatus: z.enum(SHIPMENT_STATUSES).describe('DECISIONS.md 18; not_applicable for anything but a paid copy.'),
    trackingNumber: z.string().nullable(),
    done: z.boolean().describe('The order is finished (delivered, collected, cancelled or refunded).'),
    language: z.enum(['pl', 'en']).describe("The patient's language when she ordered: her notices are in it."),
    createdAt: z.string().describe('ISO 8601 UTC.'),
    updatedAt: z.string().describe('ISO 8601 UTC.'),
    price: money.describe('Copied when the order was placed; a later price change never alters it.'),
    screeningId: z.number().int(),
    screeningExternalId: z.string().nullable().describe('Your id of the screening, when it came through the provider API.'),
    patientExternalId: z.string().nullable().describe('Your id of the patient, when known.'),
    documentId: z.string().nullable().describe("A translation's document."),
    consultationSlotId: z.number().int().nullable(),
    delivery: z
      .object({
        docReceiver: z
          .union([z.literal(0), z.literal(1), z.literal(2)])
          .describe('0 picked up in person, 1 sent to the address, 2 picked up by the authorised person.'),
        requestTypes: z.array(z.string()).describe('What the copy holds: result, survey, digital_images, inspection.'),
        requestDigitalImage: z.boolean(),
        recipient: z.object({ firstName: z.string(), lastName: z.string() }),
        email: z.string().nullable(),
        address: z
          .object({
            province: z.string(),
            city: z.string(),
            postalCode: z.string(),
            street: z.string(),
            houseNumber: z.string(),
            apartmentNumber: z.string().nullable(),
          })
          .nullable(),
        privilegedPerson: z.object({ name: z.string(), id: z.string() }).nullable(),
      })
      .nullable()
      .describe("A copy order's delivery details; null for other products."),
  })
  .describe('An order as the provider fulfils it.');

function orderBody(order: FulfilmentOrder): z.output<typeof orderSchema> {
  return {
    id: order.id,
    number: orderNumber(order.id),
    kind: order.kind,
    productCode: order.productCode,
    status: order.status,
    shipmentStatus: order.shipmentStatus,
    trackingNumber: order.trackingNumber,
    done: order.done,
    language: order.language,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    price: { amountGrosze: order.priceGrosze, currency: order.currency },
    screeningId: order.screeningId,
    screeningExternalId: order.screeningExternalId,
    patientExternalId: order.patientExternalId,
    documentId: order.documentId,
    consultationSlotId: order.consultationSlotId,
    delivery: order.delivery,
  };
}

const slotSchema = z.object({
  id: z.number().int(),
  radiologistName: z.string(),
  startsAt: z.string().describe('ISO 8601 UTC.'),
  durationMinutes: z.number().int(),
  heldByOrderId: z.number().int().nullable().describe('The order (not cancelled) that holds the slot; null when free.'),
});

const slotBody = (slot: AdminSlot): z.output<typeof slotSchema> => ({ ...slot, startsAt: slot.startsAt.toISOString() });

const productSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(PRODUCT_KINDS),
  name: z.object({ pl: z.string(), en: z.string() }),
  description: z.object({ pl: z.string(), en: z.string() }),
  price: money,
  active: z.boolean().describe('On sale to patients.'),
});

const productBody = (product: AdminProduct): z.output<typeof productSchema> => ({
  id: product.id,
  code: product.code,
  kind: product.kind,
  name: product.name,
  description: product.description,
  price: { amountGrosze: product.priceGrosze, currency: product.currency },
  active: product.active,
});

const orderParams = z.object({ id: serialParam("The portal's order id.") });

const listQuery = z.object({
  status: z
    .enum([...PAYMENT_STATUSES, 'paid'])
    .optional()
    .transform((value) => (value === 'paid' ? 'COMPLETED' : value))
    .describe('Payment status; `paid` is COMPLETED.'),
  shipment: z.enum(SHIPMENT_STATUSES).optional().describe('Shipment status, e.g. awaiting for copies to prepare.'),
  kind: z.enum(PRODUCT_KINDS).optional(),
  done: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true'))
    .describe('Finished orders (true) or open ones (false).'),
  after: z.coerce.number().int().min(0).max(MAX_ID).optional().describe('The last id of the previous page.'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).optional().describe(`Page size, 50 by default, at most ${MAX_PAGE}.`),
});

const shipmentBody = z
  .strictObject({
    shipmentStatus: z.enum(SETTABLE_SHIPMENT_STATUSES),
    trackingNumber: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .describe("The carrier's number of a sent copy; null removes it. Only with shipmentStatus sent."),
    done: z.boolean().optional().describe('Ends (or reopens) the order; true by default once delivered or collected.'),
  })
  .refine((body) => body.trackingNumber === undefined || body.trackingNumber === null || body.shipmentStatus === 'sent', {
    message: 'A tracking number goes only with shipmentStatus sent.',
    path: ['trackingNumber'],
  });

const refundBody = z.strictObject({
  amountGrosze: z.number().int().min(1).max(MAX_ID).optional().describe('In grosze; what is left of the payment by default.'),
  reason: z.string().trim().min(1).max(200).describe("Shown to the payment provider as the refund's description."),
});

const refundSchema = z.object({
  order: orderSchema,
  refund: z.object({
    refundId: z.string().describe("The payment provider's id of the refund."),
    status: z.enum(['PENDING', 'FINALIZED', 'CANCELED']),
    amountGrosze: z.number().int().describe('Returned by this refund, in grosze: as asked, or all that was left of the payment.'),
    full: z.boolean().describe('The whole payment was refunded: the order is done.'),
    currency: z.string(),
  }),
});

const slotsQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional().describe('Slots starting at or after (ISO 8601).'),
  to: z.iso.datetime({ offset: true }).optional().describe('Slots starting before (ISO 8601).'),
});

const slotInput = z.strictObject({
  radiologistName: z.string().trim().min(1).max(200),
  startsAt: z.iso.datetime({ offset: true }).describe("ISO 8601; with radiologistName the slot's natural key."),
  durationMinutes: z.number().int().min(1).max(480).optional().describe('20 by default.'),
});

const localizedPatch = z.strictObject({
  pl: z.string().trim().min(1).max(500).optional(),
  en: z.string().trim().min(1).max(500).optional(),
});

const productPatch = z.strictObject({
  priceGrosze: z.number().int().min(0).max(100_000_00).optional().describe('For new orders; placed orders keep theirs.'),
  active: z.boolean().optional(),
  name: localizedPatch.optional(),
  description: localizedPatch.optional(),
});

const conflict = (description: string) => ({ 409: { description } });

/**
 * The provider API's calls about orders (scopes orders:read, orders:write) and the catalog
 * (catalog:write): thin definitions over the fulfilment and catalog services, which the staff
 * command line calls too.
 */
export function orderEndpoints(deps: OrderEndpointDeps): ProviderEndpoint[] {
  const fulfilment = createFulfilmentService(deps);
  const catalog = createCatalogAdminService(deps);

  return [
    defineEndpoint({
      method: 'get',
      path: '/orders',
      operationId: 'listOrders',
      summary: 'List orders, e.g. paid copies waiting to be prepared',
      description:
        "Oldest first. Filter with `status`, `shipment`, `kind`, `done`; page with `limit` and `after` (pass the answer's `nextAfter`). " +
        'Copy orders carry the delivery details needed to send or hand over the copy.',
      tag: ORDERS_TAG,
      scope: 'orders:read',
      request: { query: listQuery },
      responses: {
        200: {
          description: 'A page of orders.',
          schema: z.object({
            orders: z.array(orderSchema),
            nextAfter: z.number().int().nullable().describe('`after` of the next page; null on the last page.'),
          }),
        },
      },
      async handle({ query }) {
        const page = await fulfilment.listOrders(query);
        return { status: 200, body: { orders: page.orders.map(orderBody), nextAfter: page.nextAfter } };
      },
    }),

    defineEndpoint({
      method: 'get',
      path: '/orders/:id',
      operationId: 'getOrder',
      summary: 'Read one order',
      tag: ORDERS_TAG,
      scope: 'orders:read',
      request: { params: orderParams },
      responses: { 200: { description: 'The order.', schema: orderSchema } },
      async handle({ params }) {
        const order = await fulfilment.getOrder(params.id);
        return { status: 200, body: orderBody(order), object: { type: 'order', id: order.id } };
      },
    }),

    defineEndpoint({
      method: 'patch',
      path: '/orders/:id/shipment',
      operationId: 'updateOrderShipment',
      summary: 'Set the shipment status of a copy order',
      description:
        'Only a paid copy ships. From awaiting a copy goes to prepared, sent (with an optional tracking number), delivered or ' +
        'collected; prepared may go back to awaiting; sent goes to delivered; delivered and collected are final. Sent and delivered ' +
        'are for copies sent to an address, collected for copies picked up. The same values again change nothing. A real change ' +
        'of status tells the patient (e-mail, and SMS when her phone is known) in her language, with a link to the order page.',
      tag: ORDERS_TAG,
      scope: 'orders:write',
      request: { params: orderParams, body: shipmentBody },
      responses: {
        200: { description: 'The order after the change (or as it was, when nothing changed).', schema: orderSchema },
        ...conflict(
          'CONFLICT: not a paid copy (`reason` not_shippable), a change the statuses do not allow (shipment_transition), or one that does not fit how the copy goes (not_sent_by_post, sent_by_post).',
        ),
      },
      async handle({ params, body }) {
        const { order } = await fulfilment.updateShipment(params.id, body);
        return { status: 200, body: orderBody(order), object: { type: 'order', id: order.id } };
      },
    }),

    defineEndpoint({
      method: 'post',
      path: '/orders/:id/refund',
      operationId: 'refundOrder',
      summary: 'Refund a paid order through the payment provider',
      description:
        'Refunds what is left of the payment, or `amountGrosze`. The same request again is the same refund at the payment provider, ' +
        'never a second one (with `Idempotency-Key` it also gets the first answer). A full refund ends the order (`done`).',
      tag: ORDERS_TAG,
      scope: 'orders:write',
      idempotent: true,
      request: { params: orderParams, body: refundBody },
      responses: {
        200: { description: 'The refund as the payment provider took it, and the order.', schema: refundSchema },
        ...conflict(
          'CONFLICT: nothing paid to refund (`reason` not_paid), paid through another provider (other_provider), all of it refunded already (nothing_to_refund), more than is left of the payment (refund_too_large, with `leftGrosze`), or refused by the payment provider (refund_refused, with `providerMessage`).',
        ),
        503: { description: 'The payment provider did not answer (NO_CONNECTION); safe to retry.' },
      },
      async handle({ params, body, context }) {
        const result = await fulfilment.refund(params.id, { ...body, requestedBy: context.caller.actor });
        return {
          status: 200,
          body: { order: orderBody(result.order), refund: result.refund },
          object: { type: 'order', id: result.order.id },
        };
      },
    }),

    defineEndpoint({
      method: 'get',
      path: '/consultation-slots',
      operationId: 'listConsultationSlots',
      summary: 'List consultation slots, free and held',
      description: 'By start, at most 500; narrow with `from` and `to`.',
      tag: CATALOG_TAG,
      scope: 'catalog:write',
      request: { query: slotsQuery },
      responses: { 200: { description: 'The slots.', schema: z.object({ slots: z.array(slotSchema) }) } },
      async handle({ query }) {
        const slots = await catalog.listSlots({
          from: query.from === undefined ? undefined : new Date(query.from),
          to: query.to === undefined ? undefined : new Date(query.to),
        });
        return { status: 200, body: { slots: slots.map(slotBody) } };
      },
    }),

    defineEndpoint({
      method: 'put',
      path: '/consultation-slots',
      operationId: 'upsertConsultationSlot',
      summary: 'Create or update a consultation slot by radiologist and start',
      tag: CATALOG_TAG,
      scope: 'catalog:write',
      request: { body: slotInput },
      responses: {
        200: { description: 'The slot existed; its duration is as given.', schema: slotSchema },
        201: { description: 'The slot was created.', schema: slotSchema },
      },
      async handle({ body }) {
        const { slot, created } = await catalog.upsertSlot({
          radiologistName: body.radiologistName,
          startsAt: new Date(body.startsAt),
          durationMinutes: body.durationMinutes ?? 20,
        });
        return { status: created ? 201 : 200, body: slotBody(slot), object: { type: 'consultation_slot', id: slot.id } };
      },
    }),

    defineEndpoint({
      method: 'delete',
      path: '/consultation-slots/:id',
      operationId: 'deleteConsultationSlot',
      summary: 'Delete a consultation slot no order holds',
      tag: CATALOG_TAG,
      scope: 'catalog:write',
      request: { params: z.object({ id: serialParam("The portal's slot id.") }) },
      responses: {
        204: { description: 'Deleted.' },
        ...conflict('CONFLICT (`reason` slot_has_orders): an order holds or held the slot.'),
      },
      async handle({ params }) {
        await catalog.deleteSlot(params.id);
        return { status: 204, object: { type: 'consultation_slot', id: params.id } };
      },
    }),

    defineEndpoint({
      method: 'get',
      path: '/products',
      operationId: 'listProducts',
      summary: 'List the products, on sale or not',
      tag: CATALOG_TAG,
      scope: 'catalog:write',
      responses: { 200: { description: 'The products.', schema: z.object({ products: z.array(productSchema) }) } },
      async handle() {
        return { status: 200, body: { products: (await catalog.listProducts()).map(productBody) } };
      },
    }),

    defineEndpoint({
      method: 'patch',
      path: '/products/:code',
      operationId: 'updateProduct',
      summary: "Change a product's price, names, descriptions or whether it is on sale",
      description: 'A new price applies to new orders; an order keeps the price it was placed with.',
      tag: CATALOG_TAG,
      scope: 'catalog:write',
      request: { params: z.object({ code: z.string().max(100).describe("The product's code, e.g. copy-of-images.") }), body: productPatch },
      responses: { 200: { description: 'The product after the change.', schema: productSchema } },
      async handle({ params, body }) {
        const product = await catalog.updateProduct(params.code, body);
        return { status: 200, body: productBody(product), object: { type: 'product', id: product.id } };
      },
    }),
  ];
}
