import type { Knex } from 'knex';
import type { PaymentStatus, ProductKind, ShipmentStatus } from '../../common/types/orders';
import type { CopyOrderForm } from '../../common/validation/order-copy';
import type { Db } from '../db';
import { AppError } from '../lib/errors';

type DbOrTransaction = Db | Knex.Transaction;

export type OrderRow = {
  id: number;
  userId: number;
  screeningId: number;
  productId: number;
  productCode: string;
  productKind: ProductKind;
  productName: { pl: string; en: string };
  productDescription: { pl: string; en: string };
  documentId: string | null;
  consultationSlotId: number | null;
  priceGrosze: number;
  currency: string;
  status: PaymentStatus;
  done: boolean;
  shipmentStatus: ShipmentStatus;
  language: 'pl' | 'en';
  createdAt: Date;
  expiresAt: Date | null;
};

const ORDER_COLUMNS = {
  id: 'o.id',
  userId: 'o.user_id',
  screeningId: 'o.screening_id',
  productId: 'o.product_id',
  productCode: 'p.code',
  productKind: 'p.kind',
  namePl: 'p.name_pl',
  nameEn: 'p.name_en',
  descriptionPl: 'p.description_pl',
  descriptionEn: 'p.description_en',
  documentId: 'o.document_id',
  consultationSlotId: 'o.consultation_slot_id',
  priceGrosze: 'o.price_grosze',
  currency: 'o.currency',
  status: 'o.status',
  done: 'o.done',
  shipmentStatus: 'o.shipment_status',
  language: 'o.language',
  createdAt: 'o.created_at',
  expiresAt: 'o.expires_at',
};

type RawOrder = Omit<OrderRow, 'productName' | 'productDescription'> & {
  namePl: string;
  nameEn: string;
  descriptionPl: string;
  descriptionEn: string;
};

function orderOf({ namePl, nameEn, descriptionPl, descriptionEn, ...row }: RawOrder): OrderRow {
  return {
    ...row,
    currency: row.currency.trim(),
    language: row.language.trim() as 'pl' | 'en',
    productName: { pl: namePl, en: nameEn },
    productDescription: { pl: descriptionPl, en: descriptionEn },
  };
}

function orders(db: DbOrTransaction) {
  return db('orders as o').join('products as p', 'p.id', 'o.product_id');
}

export async function findOrder(db: DbOrTransaction, id: number): Promise<OrderRow | undefined> {
  const row: RawOrder | undefined = await orders(db).where('o.id', id).first(ORDER_COLUMNS);
  return row && orderOf(row);
}

/** The order, locked for the rest of the transaction: payments and cancellations of one order take turns. */
export async function lockOrder(trx: Knex.Transaction, id: number): Promise<OrderRow | undefined> {
  const row: RawOrder | undefined = await orders(trx).where('o.id', id).forUpdate('o').first(ORDER_COLUMNS);
  return row && orderOf(row);
}

export type NewOrder = {
  userId: number;
  screeningId: number;
  productId: number;
  documentId?: string | null;
  consultationSlotId?: number | null;
  priceGrosze: number;
  currency: string;
  status: PaymentStatus;
  shipmentStatus: ShipmentStatus;
  language: 'pl' | 'en';
  createdAt: Date;
  expiresAt: Date | null;
};

/**
 * Inserts an order. The database decides the races: `orders_one_open_per_product` answers "Such
 * order already exist" and `orders_slot_taken` "slot taken", however many requests arrive at once.
 */
export async function insertOrder(trx: DbOrTransaction, order: NewOrder): Promise<number> {
  try {
    const [row] = await trx('orders')
      .insert({
        user_id: order.userId,
        screening_id: order.screeningId,
        product_id: order.productId,
        document_id: order.documentId ?? null,
        consultation_slot_id: order.consultationSlotId ?? null,
        price_grosze: order.priceGrosze,
        currency: order.currency,
        status: order.status,
        shipment_status: order.shipmentStatus,
        language: order.language,
        created_at: order.createdAt,
        updated_at: order.createdAt,
        expires_at: order.expiresAt,
      })
      .returning('id');
    return row.id;
  } catch (error) {
    const constraint =
      (error as { code?: string; constraint?: string }).code === '23505' ? (error as { constraint?: string }).constraint : undefined;
    if (constraint === 'orders_one_open_per_product') throw new AppError(409, 'ORDER_ALREADY_EXISTS');
    if (constraint === 'orders_slot_taken') throw new AppError(409, 'SLOT_TAKEN');
    throw error;
  }
}

export async function insertCopyDetails(trx: DbOrTransaction, orderId: number, form: CopyOrderForm): Promise<void> {
  await trx('copy_order_details').insert({
    order_id: orderId,
    request_types: form.requestTypes,
    request_digital_image: form.requestDigitalImage,
    health_care_institution: form.healthCareInstitution,
    doc_receiver: form.docReceiver,
    email: form.email,
    province_id: form.address?.provinceId ?? null,
    city_id: form.address?.cityId ?? null,
    postal_code: form.address?.postalCode ?? null,
    street: form.address?.street ?? null,
    house_number: form.address?.houseNumber ?? null,
    apartment_number: form.address?.apartmentNumber ?? null,
    privileged_person_name: form.privilegedPerson?.name ?? null,
    privileged_person_id: form.privilegedPerson?.id ?? null,
    statement1: true,
    statement2: true,
  });
}

/** Locks the screening's row so two copy orders of one screening are decided one after the other. */
export async function lockScreening(trx: Knex.Transaction, screeningId: number): Promise<void> {
  await trx('screenings').where({ id: screeningId }).forUpdate().first('id');
}

/** The first order of the screening that is not done (spec section 4: it blocks a new copy order). */
export async function findOpenOrderId(db: DbOrTransaction, screeningId: number): Promise<number | undefined> {
  const row = await db('orders').where({ screening_id: screeningId, done: false }).orderBy('id').first('id');
  return row?.id;
}

export async function updateOrder(
  trx: DbOrTransaction,
  id: number,
  changes: Partial<{ status: PaymentStatus; done: boolean; shipmentStatus: ShipmentStatus; expiresAt: Date | null }>,
  now: Date,
): Promise<void> {
  await trx('orders')
    .where({ id })
    .update({
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.done !== undefined && { done: changes.done }),
      ...(changes.shipmentStatus !== undefined && { shipment_status: changes.shipmentStatus }),
      ...(changes.expiresAt !== undefined && { expires_at: changes.expiresAt }),
      updated_at: now,
    });
}

/** Unpaid orders whose time is up, oldest first. */
export async function findExpiredOrderIds(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows: { id: number }[] = await db('orders')
    .whereIn('status', ['NEW', 'PENDING'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .select('id');
  return rows.map((row) => row.id);
}

/** The patient's name and e-mail for the provider's checkout and the order's mails. */
export async function findBuyer(db: DbOrTransaction, userId: number): Promise<{ email: string; firstName: string; lastName: string }> {
  return db('users as u')
    .join('personal_data as d', 'd.id', 'u.personal_data_id')
    .where('u.id', userId)
    .first({ email: 'u.email', firstName: 'd.first_name', lastName: 'd.last_name' });
}
