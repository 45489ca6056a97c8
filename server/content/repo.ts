import type { Banner, BannerPosition } from '../../common/types/content';
import type { Db } from '../db';

export async function listActiveBanners(db: Db, position: BannerPosition): Promise<Banner[]> {
  const rows = await db('banners')
    .where({ position, active: true })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])
    .select('id', 'position', 'image_url', 'link_url', 'alt_pl', 'alt_en');
  return rows.map((row) => ({
    id: row.id,
    position: row.position,
    imageUrl: row.image_url,
    linkUrl: row.link_url,
    alt: { pl: row.alt_pl, en: row.alt_en },
  }));
}

export type InstructionType = 'iso' | 'referral-information';

export async function findInstruction(
  db: Db,
  type: InstructionType,
  language: 'pl' | 'en',
): Promise<{ name: string; content: Buffer } | undefined> {
  return db('instructions').where({ type, language }).first('name', 'content');
}
