import type { Db } from '../db';

/** The stored argon2id hash of an active account, or undefined when it is gone or disabled. */
export async function findActivePasswordHash(db: Db, userId: number): Promise<string | undefined> {
  const row = await db('users').where({ id: userId }).whereNull('disabled_at').first<{ passwordHash: string } | undefined>({
    passwordHash: 'password_hash',
  });
  return row?.passwordHash;
}

/**
 * Stores a new password (argon2id of the browser's SHA-256 hex). Whoever sets it has just proved
 * who they are, so a pending "must change the password" is settled with it.
 */
export async function storeNewPassword(db: Db, userId: number, passwordHash: string, at: Date): Promise<void> {
  await db('users').where({ id: userId }).update({
    password_hash: passwordHash,
    require_password_change: false,
    password_changed_at: at,
  });
}
