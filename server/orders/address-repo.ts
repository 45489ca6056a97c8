import type { Db } from '../db';

/** Whether the chosen city lies in the chosen province (the form's pickers make it so; a hand-made body may not). */
export async function cityInProvince(db: Db, cityId: number, provinceId: number): Promise<boolean> {
  return (await db('cities').where({ id: cityId, province_id: provinceId }).first('id')) !== undefined;
}
