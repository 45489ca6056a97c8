import type { SessionUser } from '../../common/types/session';
import { rawQuery, type Db } from '../db';

/** A patient's account as `SessionUser` needs it, read from `users u` joined with `personal_data p`. */
export const PATIENT_COLUMNS = `u.id, u.email, u.personal_data_id AS "personalDataId",
  u.require_password_change AS "requirePasswordChange", p.first_name AS "firstName", p.last_name AS "lastName",
  p.birth_at AS "birthAt", p.pesel, p.email AS "personalEmail", p.phone_number AS "phoneNumber"`;

export type PatientRow = {
  id: number;
  email: string;
  personalDataId: number;
  requirePasswordChange: boolean;
  firstName: string;
  lastName: string;
  birthAt: string;
  pesel: string | null;
  personalEmail: string | null;
  phoneNumber: string | null;
};

// Raw SQL, not the query builder: the client asks who is signed in on every page load.
const ACTIVE_PATIENT = `SELECT ${PATIENT_COLUMNS}
  FROM users u JOIN personal_data p ON p.id = u.personal_data_id
 WHERE u.id = $1 AND u.disabled_at IS NULL`;

/** The patient as `SessionUser` (docs/api.md); undefined when the account is gone or disabled. */
export async function findActivePatient(db: Db, userId: number): Promise<SessionUser | undefined> {
  const [row] = await rawQuery<PatientRow>(db, ACTIVE_PATIENT, [userId]);
  return row && toSessionUser(row);
}

export function toSessionUser(row: PatientRow): SessionUser {
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
