import type { ResetChannel } from '../../common/validation/password-reset';
import type { Db } from '../db';

export type ResetAccount = { id: number; email: string; phoneNumber: string | null };

const accountColumns = { id: 'u.id', email: 'u.email', phoneNumber: 'p.phone_number' };

function activeAccounts(db: Db) {
  return db('users as u').join('personal_data as p', 'p.id', 'u.personal_data_id').whereNull('u.disabled_at');
}

/** The active account whose login is this email (case-insensitive, like the login). */
export async function findActiveAccountByEmail(db: Db, email: string): Promise<ResetAccount | undefined> {
  return activeAccounts(db).whereRaw('lower(u.email) = lower(?)', [email]).first(accountColumns);
}

/** Active accounts whose personal data holds one of these spellings of a phone number. */
export async function findActiveAccountsByPhone(db: Db, spellings: string[]): Promise<ResetAccount[]> {
  return activeAccounts(db).whereIn('p.phone_number', spellings).orderBy('u.id').select(accountColumns);
}

/** A reset link (asked for by the patient) or an invitation link (sent by the provider); both set a password. */
export type LinkPurpose = 'reset' | 'invitation';

export type NewResetToken = {
  userId: number;
  tokenHash: Buffer;
  channel: ResetChannel;
  createdAt: Date;
  expiresAt: Date;
  /** 'reset' unless said otherwise. */
  purpose?: LinkPurpose;
};

/**
 * Stores a new token as the user's only usable one: earlier unused tokens are deleted (their
 * links then read as invalid), used and expired ones stay a day to tell "used" or "expired".
 */
export async function replaceResetToken(trx: Db, token: NewResetToken, keepSpentSince: Date): Promise<void> {
  await trx('password_reset_tokens')
    .where({ user_id: token.userId })
    .andWhere((query) =>
      query
        .where((unused) => unused.whereNull('used_at').andWhere('expires_at', '>', token.createdAt))
        .orWhere('expires_at', '<', keepSpentSince),
    )
    .delete();
  await trx('password_reset_tokens').insert({
    user_id: token.userId,
    token_hash: token.tokenHash,
    channel: token.channel,
    purpose: token.purpose ?? 'reset',
    created_at: token.createdAt,
    expires_at: token.expiresAt,
  });
}

export type StoredResetToken = { id: number; userId: number; usedAt: Date | null; expiresAt: Date; accountActive: boolean };

/**
 * The token with this hash. `forUpdate` locks its row for the caller's transaction, so two
 * concurrent uses of one link are serialized and the second sees it used.
 */
export async function findResetToken(
  db: Db,
  tokenHash: Buffer,
  options: { forUpdate?: boolean } = {},
): Promise<StoredResetToken | undefined> {
  const query = db('password_reset_tokens as t')
    .join('users as u', 'u.id', 't.user_id')
    .where('t.token_hash', tokenHash)
    .first({
      id: 't.id',
      userId: 't.user_id',
      usedAt: 't.used_at',
      expiresAt: 't.expires_at',
      accountActive: db.raw('u.disabled_at IS NULL'),
    });
  const row: StoredResetToken | undefined = await (options.forUpdate ? query.forUpdate('t') : query);
  return row;
}

/** Spends the token and drops the user's other unused ones: one reset, one usable link. */
export async function spendResetToken(trx: Db, token: { id: number; userId: number }, at: Date): Promise<void> {
  await trx('password_reset_tokens').where({ id: token.id }).update({ used_at: at });
  await trx('password_reset_tokens').where({ user_id: token.userId }).whereNull('used_at').delete();
}
