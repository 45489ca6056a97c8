import type { Db } from '../db';

export type InvitedPatient = {
  personalDataId: number;
  email: string | null;
  phoneNumber: string | null;
  account: { id: number; email: string; disabled: boolean } | null;
};

/** The patient the provider knows by its own id, with her portal account if she has one. */
export async function findPatientByExternalId(db: Db, externalId: string): Promise<InvitedPatient | undefined> {
  const row = await db('personal_data as p').leftJoin('users as u', 'u.personal_data_id', 'p.id').where('p.external_id', externalId).first<
    | {
        personalDataId: number;
        email: string | null;
        phoneNumber: string | null;
        userId: number | null;
        login: string | null;
        disabledAt: Date | null;
      }
    | undefined
  >({
    personalDataId: 'p.id',
    email: 'p.email',
    phoneNumber: 'p.phone_number',
    userId: 'u.id',
    login: 'u.email',
    disabledAt: 'u.disabled_at',
  });
  if (!row) return undefined;
  return {
    personalDataId: row.personalDataId,
    email: row.email,
    phoneNumber: row.phoneNumber,
    account: row.userId !== null ? { id: row.userId, email: row.login!, disabled: row.disabledAt !== null } : null,
  };
}

/** Whether another account already logs in with this address (logins are unique, case-insensitively). */
export async function loginTaken(db: Db, email: string): Promise<boolean> {
  const row = await db('users').whereRaw('lower(email) = lower(?)', [email]).first('id');
  return Boolean(row);
}

/**
 * Opens a portal account for the patient. Returns its id, or undefined when she got one
 * meanwhile (a concurrent invitation): the caller reads that one instead.
 */
export async function createInvitedAccount(
  db: Db,
  account: { personalDataId: number; email: string; passwordHash: string; createdAt: Date },
): Promise<number | undefined> {
  const [row] = await db('users')
    .insert({
      personal_data_id: account.personalDataId,
      email: account.email,
      password_hash: account.passwordHash,
      require_password_change: false,
      created_at: account.createdAt,
    })
    .onConflict('personal_data_id')
    .ignore()
    .returning('id');
  return row ? Number(row.id) : undefined;
}
