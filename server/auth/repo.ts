import type { Db } from '../db';

export type ScreeningCredentials = { id: number; birthAt: string };

/** The screening whose access code has this keyed hash, with the birth date it must match. */
export async function findScreeningByAccessCodeHash(db: Db, accessCodeHash: Buffer): Promise<ScreeningCredentials | undefined> {
  return db('screenings as s')
    .join('personal_data as p', 'p.id', 's.personal_data_id')
    .where('s.access_code_hash', accessCodeHash)
    .first({ id: 's.id', birthAt: 'p.birth_at' });
}

export type LoginAccount = {
  id: number;
  passwordHash: string;
  requirePasswordChange: boolean;
  disabled: boolean;
};

/** Logins are emails, matched case-insensitively (unique index on lower(email)). */
export async function findAccountByLogin(db: Db, login: string): Promise<LoginAccount | undefined> {
  return db('users')
    .whereRaw('lower(email) = lower(?)', [login])
    .first({
      id: 'id',
      passwordHash: 'password_hash',
      requirePasswordChange: 'require_password_change',
      disabled: db.raw('disabled_at IS NOT NULL'),
    });
}

export async function recordLogin(db: Db, userId: number, at: Date): Promise<void> {
  await db('users').where({ id: userId }).update({ last_login_at: at });
}
