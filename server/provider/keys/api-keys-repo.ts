import type { Db } from '../../db';

export type ApiKeyRow = {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  rateLimitPerMinute: number;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
};

const COLUMNS = [
  'id',
  'name',
  'prefix',
  'scopes',
  'rate_limit_per_minute as rateLimitPerMinute',
  'created_by as createdBy',
  'created_at as createdAt',
  'expires_at as expiresAt',
  'revoked_at as revokedAt',
  'last_used_at as lastUsedAt',
];

export async function insertApiKey(
  db: Db,
  key: {
    name: string;
    prefix: string;
    secretHash: Buffer;
    scopes: string[];
    rateLimitPerMinute: number;
    createdBy: string;
    expiresAt: Date | null;
  },
): Promise<ApiKeyRow> {
  const [row] = await db('api_keys')
    .insert({
      name: key.name,
      prefix: key.prefix,
      secret_hash: key.secretHash,
      scopes: key.scopes,
      rate_limit_per_minute: key.rateLimitPerMinute,
      created_by: key.createdBy,
      expires_at: key.expiresAt,
    })
    .returning(COLUMNS);
  return row;
}

export async function listApiKeys(db: Db): Promise<ApiKeyRow[]> {
  return db('api_keys')
    .select(...COLUMNS)
    .orderBy('id');
}

/** Revokes by id or prefix; answers the key as it is now, or undefined when none matches. A second revocation keeps the first time. */
export async function revokeApiKey(db: Db, idOrPrefix: number | string, now: Date): Promise<ApiKeyRow | undefined> {
  const where = typeof idOrPrefix === 'number' ? { id: idOrPrefix } : { prefix: idOrPrefix };
  const [row] = await db('api_keys')
    .where(where)
    .update({ revoked_at: db.raw('coalesce(revoked_at, ?)', [now]) })
    .returning(COLUMNS);
  return row;
}

export type KeyCall =
  | { kind: 'unknown' }
  | { kind: 'revoked' | 'expired'; id: number }
  | { kind: 'admitted'; id: number; scopes: string[] }
  | { kind: 'over-limit'; id: number; retryAfterSeconds: number };

/**
 * Authenticates, counts and stamps one call in a single statement: the key's fixed one-minute
 * window is restarted when it has passed, else its count grows. Revoked and expired keys are
 * told apart (their holder has the secret) but are neither counted nor stamped.
 */
export async function recordKeyCall(db: Db, secretHash: Buffer, now: Date): Promise<KeyCall> {
  const windowStart = new Date(now.getTime() - 60_000);
  const result = await db.raw(
    `UPDATE api_keys SET
       last_used_at = :now,
       rate_window_started_at = CASE WHEN rate_window_started_at > :windowStart THEN rate_window_started_at ELSE :now END,
       rate_window_calls = CASE WHEN rate_window_started_at > :windowStart THEN rate_window_calls + 1 ELSE 1 END
     WHERE secret_hash = :secretHash AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > :now)
     RETURNING id, scopes, rate_limit_per_minute, rate_window_started_at, rate_window_calls`,
    { now, windowStart, secretHash },
  );
  const row = result.rows[0] as
    { id: number; scopes: string[]; rate_limit_per_minute: number; rate_window_started_at: Date; rate_window_calls: number } | undefined;
  if (row) {
    if (row.rate_window_calls <= row.rate_limit_per_minute) return { kind: 'admitted', id: row.id, scopes: row.scopes };
    const windowEndsMs = row.rate_window_started_at.getTime() + 60_000 - now.getTime();
    return { kind: 'over-limit', id: row.id, retryAfterSeconds: Math.max(1, Math.ceil(windowEndsMs / 1000)) };
  }
  const refused: { id: number; revoked_at: Date | null } | undefined = await db('api_keys')
    .where('secret_hash', secretHash)
    .first('id', 'revoked_at');
  if (!refused) return { kind: 'unknown' };
  return { kind: refused.revoked_at ? 'revoked' : 'expired', id: refused.id };
}
