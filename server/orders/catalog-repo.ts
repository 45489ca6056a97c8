import type { ConsultationSlot, Product, ProductKind } from '../../common/types/orders';
import type { Db } from '../db';

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
};

function productOf(row: ProductRow): Product {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    name: { pl: row.name_pl, en: row.name_en },
    description: { pl: row.description_pl, en: row.description_en },
    price: { amountGrosze: row.price_grosze, currency: row.currency.trim() },
  };
}

const PRODUCT_COLUMNS = ['id', 'code', 'kind', 'name_pl', 'name_en', 'description_pl', 'description_en', 'price_grosze', 'currency'];

/** The products on sale, copies first, then by price. */
export async function listActiveProducts(db: Db): Promise<Product[]> {
  const rows: ProductRow[] = await db('products')
    .where({ active: true })
    .orderBy([{ column: 'kind' }, { column: 'price_grosze' }, { column: 'id' }])
    .select(PRODUCT_COLUMNS);
  return rows.map(productOf);
}

export async function findActiveProduct(db: Db, id: number): Promise<Product | undefined> {
  const row: ProductRow | undefined = await db('products').where({ id, active: true }).first(PRODUCT_COLUMNS);
  return row && productOf(row);
}

export async function findActiveProductByCode(db: Db, code: string): Promise<Product | undefined> {
  const row: ProductRow | undefined = await db('products').where({ code, active: true }).first(PRODUCT_COLUMNS);
  return row && productOf(row);
}

/** A slot is free when no order that is not cancelled holds it (the index `orders_slot_taken`). */
function freeSlots(db: Db, now: Date) {
  return db('consultation_slots as s')
    .where('s.starts_at', '>', now)
    .whereNotExists(db('orders as o').whereRaw('o.consultation_slot_id = s.id').whereNot('o.status', 'CANCELED'));
}

const SLOT_COLUMNS = { id: 's.id', startsAt: 's.starts_at', durationMinutes: 's.duration_minutes', radiologistName: 's.radiologist_name' };

type SlotRow = { id: number; startsAt: Date; durationMinutes: number; radiologistName: string };
const slotOf = (row: SlotRow): ConsultationSlot => ({ ...row, startsAt: row.startsAt.toISOString() });

export async function listFreeSlots(db: Db, now: Date, limit: number): Promise<ConsultationSlot[]> {
  const rows: SlotRow[] = await freeSlots(db, now)
    .orderBy([{ column: 's.starts_at' }, { column: 's.id' }])
    .limit(limit)
    .select(SLOT_COLUMNS);
  return rows.map(slotOf);
}

export async function findSlot(db: Db, id: number): Promise<ConsultationSlot | undefined> {
  const row: SlotRow | undefined = await db('consultation_slots as s').where('s.id', id).first(SLOT_COLUMNS);
  return row && slotOf(row);
}
