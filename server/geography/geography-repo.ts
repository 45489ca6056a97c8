import type { City, Province } from '../../common/types/geography';
import type { Db } from '../db';

export async function listProvinces(db: Db): Promise<Province[]> {
  const rows: { id: number; t_id: string; name: string }[] = await db('provinces').select('id', 't_id', 'name');
  return rows.map((row) => ({ id: row.id, tId: row.t_id, name: row.name })).sort((a, b) => a.name.localeCompare(b.name, 'pl'));
}

/** Every place of the register with its province's TERYT code. */
export async function listLocalities(db: Db): Promise<{ provinceTid: string; city: City }[]> {
  const rows: { id: number; t_id: string; name: string; pow_name: string; community_name: string; kind: City['kind'] }[] = await db(
    'cities as c',
  )
    .join('provinces as p', 'p.id', 'c.province_id')
    .select('c.id', 'p.t_id', 'c.name', 'c.pow_name', 'c.community_name', 'c.kind');
  return rows.map((row) => ({
    provinceTid: row.t_id,
    city: { id: row.id, name: row.name, district: row.pow_name, municipality: row.community_name, kind: row.kind },
  }));
}
