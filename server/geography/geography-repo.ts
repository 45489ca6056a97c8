import type { City, Province } from '../../common/types/geography';
import type { Db } from '../db';

/** Answers of one city search at most: enough to pick from, few enough to read. */
const CITIES_SHOWN = 20;

export async function listProvinces(db: Db): Promise<Province[]> {
  const rows: { id: number; t_id: string; name: string }[] = await db('provinces').select('id', 't_id', 'name');
  return rows.map((row) => ({ id: row.id, tId: row.t_id, name: row.name })).sort((a, b) => a.name.localeCompare(b.name, 'pl'));
}

/** `%` and `_` typed by the patient are letters, not LIKE wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * Places of one province whose folded name matches `folded` (see foldPlaceName): the exact name
 * first, then names starting with it, then names with a later word starting with it ("maz" finds
 * "Ostrów Mazowiecka"), each alphabetically with powiat and gmina telling namesakes apart.
 */
export async function searchCities(db: Db, provinceTid: string, folded: string): Promise<City[]> {
  const prefix = `${escapeLike(folded)}%`;
  const rows: { id: number; name: string; pow_name: string; community_name: string; kind: City['kind'] }[] = await db('cities as c')
    .join('provinces as p', 'p.id', 'c.province_id')
    .where('p.t_id', provinceTid)
    .where((query) =>
      query
        .where('c.search_name', 'like', prefix)
        .orWhere('c.search_name', 'like', `% ${prefix}`)
        .orWhere('c.search_name', 'like', `%-${prefix}`),
    )
    .orderByRaw('CASE WHEN c.search_name = ? THEN 0 WHEN c.search_name LIKE ? THEN 1 ELSE 2 END', [folded, prefix])
    .orderBy([{ column: 'c.name' }, { column: 'c.pow_name' }, { column: 'c.community_name' }, { column: 'c.id' }])
    .limit(CITIES_SHOWN)
    .select('c.id', 'c.name', 'c.pow_name', 'c.community_name', 'c.kind');
  return rows.map((row) => ({ id: row.id, name: row.name, district: row.pow_name, municipality: row.community_name, kind: row.kind }));
}
