import type { Db } from '../db';
import { notFound } from '../lib/errors';
import { findBanner, insertBanner, listAllBanners, updateBanner, type AdminBanner, type BannerFields } from './banner-admin-repo';

export type BannerAdminDeps = { db: Db };

export type NewBanner = Omit<BannerFields, 'linkUrl' | 'sortOrder' | 'active'> &
  Partial<Pick<BannerFields, 'linkUrl' | 'sortOrder' | 'active'>>;

/**
 * The sponsor banners of the result page, as the provider manages them (the patient API shows
 * the active ones). A banner is never deleted, only deactivated, so what was shown stays known.
 * Used by the provider API and the staff command line.
 */
export function createBannerAdminService({ db }: BannerAdminDeps) {
  async function banner(id: number): Promise<AdminBanner> {
    const found = await findBanner(db, id);
    if (!found) throw notFound();
    return found;
  }

  async function update(id: number, fields: Partial<BannerFields>): Promise<AdminBanner> {
    await banner(id);
    await updateBanner(db, id, fields);
    return banner(id);
  }

  return {
    list: (): Promise<AdminBanner[]> => listAllBanners(db),

    banner,

    async create(fields: NewBanner): Promise<AdminBanner> {
      const id = await insertBanner(db, { linkUrl: null, sortOrder: 0, active: true, ...fields });
      return banner(id);
    },

    update,

    /** Takes the banner off the page; calling it again changes nothing. */
    deactivate: (id: number): Promise<AdminBanner> => update(id, { active: false }),
  };
}
