import type { SessionUser } from '../../common/types/session';
import type { Db } from '../db';

/** The patient as `SessionUser` (docs/api.md); undefined when the account is gone or disabled. */
export async function findActivePatient(db: Db, userId: number): Promise<SessionUser | undefined> {
  const row = await db('users as u')
    .join('personal_data as p', 'p.id', 'u.personal_data_id')
    .where('u.id', userId)
    .whereNull('u.disabled_at')
    .first({
      id: 'u.id',
      email: 'u.email',
      personalDataId: 'u.personal_data_id',
      requirePasswordChange: 'u.require_password_change',
      firstName: 'p.first_name',
      lastName: 'p.last_name',
      birthAt: 'p.birth_at',
      pesel: 'p.pesel',
      personalEmail: 'p.email',
      phoneNumber: 'p.phone_number',
    });
  if (!row) return undefined;
  return {
    id: row.id,
    guest: false,
    email: row.email,
    personalDataId: row.personalDataId,
    requirePasswordChange: row.requirePasswordChange,
    personalData: {
      firstName: row.firstName,
      lastName: row.lastName,
      birthAt: row.birthAt,
      pesel: row.pesel,
      email: row.personalEmail,
      phoneNumber: row.phoneNumber,
    },
    screeningId: null,
  };
}
