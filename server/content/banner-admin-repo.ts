import type { BannerPosition } from '../../common/types/content';
import type { Db } from '../db';

/** A banner as the provider manages it: inactive ones too, with their order on the page. */
export type AdminBanner = {
  id: number;
  position: BannerPosition;
  imageUrl: string;
  linkUrl: string | null;
  altPl: string;
  altEn: string;
  sortOrder: number;
  active: boolean;
};

export type BannerFields = Omit<AdminBanner, 'id'>;

const COLUMNS = {
  id: 'id',
  position: 'position',
  imageUrl: 'image_url',
  linkUrl: 'link_url',
  altPl: 'alt_pl',
  altEn: 'alt_en',
  sortOrder: 'sort_order',
  active: 'active',
};

function rowOf(fields: Partial<BannerFields>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      position: fields.position,
      image_url: fields.imageUrl,
      link_url: fields.linkUrl,
      alt_pl: fields.altPl,
      alt_en: fields.altEn,
      sort_order: fields.sortOrder,
      active: fields.active,
    }).filter(([, value]) => value !== undefined),
  );
}

export async function listAllBanners(db: Db): Promise<AdminBanner[]> {
  return db('banners')
    .orderBy([{ column: 'position' }, { column: 'sort_order' }, { column: 'id' }])
    .select(COLUMNS);
}

export async function findBanner(db: Db, id: number): Promise<AdminBanner | undefined> {
  return db('banners').where({ id }).first(COLUMNS);
}

export async function insertBanner(db: Db, fields: BannerFields): Promise<number> {
  const [row] = await db('banners').insert(rowOf(fields)).returning('id');
  return row.id;
}

export async function updateBanner(db: Db, id: number, fields: Partial<BannerFields>): Promise<void> {
  const row = rowOf(fields);
  if (Object.keys(row).length > 0) await db('banners').where({ id }).update(row);
}
