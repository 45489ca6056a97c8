import type { Db } from '../db';
import { AppError, notFound } from '../lib/errors';
import {
  deleteSlot,
  findAdminSlot,
  findProductByCode,
  listAllProducts,
  listSlots,
  slotHasOrders,
  updateProduct,
  upsertSlot,
  type AdminProduct,
  type AdminSlot,
} from './catalog-admin-repo';

export type CatalogAdminDeps = { db: Db };

export type SlotInput = { radiologistName: string; startsAt: Date; durationMinutes: number };
export type ProductPatch = {
  priceGrosze?: number;
  active?: boolean;
  name?: { pl?: string; en?: string };
  description?: { pl?: string; en?: string };
};

const SLOTS_LISTED = 500;

/**
 * What the provider sells (spec sections 2-5): consultation slots and products. Used by the
 * provider API and the staff command line. A price change applies to new orders only: an order
 * copied its price when it was placed.
 */
export function createCatalogAdminService({ db }: CatalogAdminDeps) {
  return {
    /** Slots by start, from `from` (all by default), at most `limit` (500). */
    listSlots: (filter: { from?: Date; to?: Date; limit?: number } = {}): Promise<AdminSlot[]> =>
      listSlots(db, { ...filter, limit: Math.min(filter.limit ?? SLOTS_LISTED, SLOTS_LISTED) }),

    /** Creates the slot or, for a radiologist and start that exist, sets its duration. */
    async upsertSlot(slot: SlotInput): Promise<{ slot: AdminSlot; created: boolean }> {
      const { id, created } = await upsertSlot(db, slot);
      return { slot: (await findAdminSlot(db, id))!, created };
    },

    /** Removes a slot no order names; one an order holds (or held) is 409 CONFLICT. */
    async deleteSlot(id: number): Promise<void> {
      const slot = await findAdminSlot(db, id);
      if (!slot) throw notFound();
      const held = () => new AppError(409, 'CONFLICT', { reason: 'slot_has_orders' });
      if (await slotHasOrders(db, id)) throw held();
      const outcome = await deleteSlot(db, id);
      if (outcome === 'missing') throw notFound();
      if (outcome === 'held') throw held();
    },

    listProducts: (): Promise<AdminProduct[]> => listAllProducts(db),

    async product(code: string): Promise<AdminProduct> {
      const product = await findProductByCode(db, code);
      if (!product) throw notFound();
      return product;
    },

    async updateProduct(code: string, patch: ProductPatch): Promise<AdminProduct> {
      if (!(await findProductByCode(db, code))) throw notFound();
      await updateProduct(db, code, {
        priceGrosze: patch.priceGrosze,
        active: patch.active,
        namePl: patch.name?.pl,
        nameEn: patch.name?.en,
        descriptionPl: patch.description?.pl,
        descriptionEn: patch.description?.en,
      });
      return (await findProductByCode(db, code))!;
    },
  };
}
