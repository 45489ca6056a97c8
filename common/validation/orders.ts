import { z } from 'zod';

/**
 * Bodies of the purchase calls (docs/api.md "Orders and payments"), checked by the server with
 * these schemas. Their fields are chosen in the checkout, not typed, so a failure is a hand-made
 * request: one generic message per field.
 */
const MAX_ID = 2_147_483_647;
const id = (message: string) => z.number({ error: message }).int(message).min(1, message).max(MAX_ID, message);
const language = z.enum(['pl', 'en'], { error: 'errors.generic' }).default('pl');

export const translationOrderSchema = z.object({
  screeningId: id('order.validation.screening'),
  productId: id('order.validation.product'),
  documentId: z.uuid('order.validation.document'),
  language,
});
export type TranslationOrderBody = z.output<typeof translationOrderSchema>;

export const consultationOrderSchema = z.object({
  screeningId: id('order.validation.screening'),
  productId: id('order.validation.product'),
  consultationRegistrationId: id('order.validation.slot'),
  userId: id('order.validation.user'),
  language,
});
export type ConsultationOrderBody = z.output<typeof consultationOrderSchema>;

export const paymentSchema = z.object({
  orderId: id('order.validation.order'),
  consultationRegistrationId: id('order.validation.slot').nullish(),
});
