import type { ScreeningInfo } from '../../common/types/session';
import type { Db } from '../db';

/** `createdAt` of the API is when the examination took place, not when the row was written. */
const infoColumns = { id: 's.id', createdAt: 's.examined_at' } as const;

export async function findScreeningInfo(db: Db, screeningId: number): Promise<ScreeningInfo | undefined> {
  return db('screenings as s').where('s.id', screeningId).first(infoColumns);
}

/** The screening if it belongs to the patient of this account. */
export async function findPatientScreening(db: Db, userId: number, screeningId: number): Promise<ScreeningInfo | undefined> {
  return db('screenings as s')
    .join('users as u', 'u.personal_data_id', 's.personal_data_id')
    .where({ 'u.id': userId, 's.id': screeningId })
    .first(infoColumns);
}

export async function findLatestPatientScreening(db: Db, userId: number): Promise<ScreeningInfo | undefined> {
  return db('screenings as s')
    .join('users as u', 'u.personal_data_id', 's.personal_data_id')
    .where('u.id', userId)
    .orderBy([{ column: 's.examined_at', order: 'desc' }, { column: 's.id', order: 'desc' }])
    .first(infoColumns);
}
