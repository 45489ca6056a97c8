import type { ProductKind } from '../../common/types/orders';
import type { Db } from '../db';

/** A consultation slot as the provider manages it, with the order that holds it (if any). */
export type AdminSlot = {
  id: number;
  radiologistName: string;
  startsAt: Date;
  durationMinutes: number;
  /** The order that holds it (not cancelled), or null when it is free. */
  heldByOrderId: number | null;
};

/** A product with everything the provider may change, including whether it is on sale. */
export type AdminProduct = {
  id: number;
  code: string;
  kind: ProductKind;
  name: { pl: string; en: string };
  description: { pl: string; en: string };
  priceGrosze: number;
  currency: string;
  active: boolean;
};

const SLOT_COLUMNS = {
  id: 's.id',
  radiologistName: 's.radiologist_name',
  startsAt: 's.starts_at',
  durationMinutes: 's.duration_minutes',
};

function slots(db: Db) {
  return db('consultation_slots as s').select({
    ...SLOT_COLUMNS,
    heldByOrderId: db('orders as o')
      .whereRaw('o.consultation_slot_id = s.id')
      .whereNot('o.status', 'CANCELED')
      .orderBy('o.id')
      .limit(1)
      .select('o.id'),
  });
}

export async function listSlots(db: Db, filter: { from?: Date; to?: Date; limit: number }): Promise<AdminSlot[]> {
  const query = slots(db)
    .orderBy([{ column: 's.starts_at' }, { column: 's.id' }])
    .limit(filter.limit);
  if (filter.from) query.where('s.starts_at', '>=', filter.from);
  if (filter.to) query.where('s.starts_at', '<', filter.to);
  return query;
}

export async function findAdminSlot(db: Db, id: number): Promise<AdminSlot | undefined> {
  return slots(db).where('s.id', id).first();
}

/** Inserts the slot or updates the one of that radiologist and start; `created` tells which. */
export async function upsertSlot(
  db: Db,
  slot: { radiologistName: string; startsAt: Date; durationMinutes: number },
): Promise<{ id: number; created: boolean }> {
  const [row] = await db('consultation_slots')
    .insert({ radiologist_name: slot.radiologistName, starts_at: slot.startsAt, duration_minutes: slot.durationMinutes })
    .onConflict(['radiologist_name', 'starts_at'])
    .merge({ duration_minutes: slot.durationMinutes })
    // xmax = 0 only for a row this statement inserted.
    .returning(['id', db.raw('(xmax = 0) AS created')]);
  return { id: row.id, created: row.created };
}

/** Whether any order names the slot (a cancelled one too: its row keeps the reference). */
export async function slotHasOrders(db: Db, id: number): Promise<boolean> {
  return (await db('orders').where({ consultation_slot_id: id }).first('id')) !== undefined;
}

/** Deletes the slot; `held` when an order named it meanwhile (the foreign key refuses). */
export async function deleteSlot(db: Db, id: number): Promise<'deleted' | 'missing' | 'held'> {
  try {
    return (await db('consultation_slots').where({ id }).delete()) > 0 ? 'deleted' : 'missing';
  } catch (error) {
    if ((error as { code?: string }).code === '23503') return 'held';
    throw error;
  }
}

type ProductRow = {
  id: number;
  code: string;
  kind: ProductKind;
  name_pl: string;
  name_en: string;
  description_pl: string;
  description_en: string;
  price_grosze: number;
  currency: string;
  active: boolean;
};

function productOf(row: ProductRow): AdminProduct {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    name: { pl: row.name_pl, en: row.name_en },
    description: { pl: row.description_pl, en: row.description_en },
    priceGrosze: row.price_grosze,
    currency: row.currency.trim(),
    active: row.active,
  };
}

export async function listAllProducts(db: Db): Promise<AdminProduct[]> {
  const rows: ProductRow[] = await db('products')
    .orderBy([{ column: 'kind' }, { column: 'code' }])
    .select('*');
  return rows.map(productOf);
}

export async function findProductByCode(db: Db, code: string): Promise<AdminProduct | undefined> {
  const row: ProductRow | undefined = await db('products').where({ code }).first('*');
  return row && productOf(row);
}

export type ProductChanges = Partial<{
  priceGrosze: number;
  active: boolean;
  namePl: string;
  nameEn: string;
  descriptionPl: string;
  descriptionEn: string;
}>;

/** Changes the product only: an order keeps the price it copied when it was placed (`orders.price_grosze`). */
export async function updateProduct(db: Db, code: string, changes: ProductChanges): Promise<void> {
  const columns = {
    ...(changes.priceGrosze !== undefined && { price_grosze: changes.priceGrosze }),
    ...(changes.active !== undefined && { active: changes.active }),
    ...(changes.namePl !== undefined && { name_pl: changes.namePl }),
    ...(changes.nameEn !== undefined && { name_en: changes.nameEn }),
    ...(changes.descriptionPl !== undefined && { description_pl: changes.descriptionPl }),
    ...(changes.descriptionEn !== undefined && { description_en: changes.descriptionEn }),
  };
  if (Object.keys(columns).length > 0) await db('products').where({ code }).update(columns);
}
