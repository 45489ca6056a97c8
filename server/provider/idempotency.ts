import { createHash } from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../lib/errors';

/** A stored answer of a creating call, replayed for a retry with the same `Idempotency-Key`. */
export type StoredAnswer = { status: number; body?: unknown };

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  const hash = createHash('sha256').update(`${method} ${path}\n`);
  if (Buffer.isBuffer(body)) hash.update(body);
  else hash.update(JSON.stringify(body ?? null));
  return hash.digest();
}

/**
 * Runs a creating call once per `Idempotency-Key` (the IETF draft's header, as Stripe and PayU
 * use it): the first call claims the key, runs and stores its answer; a retry gets the stored
 * answer; the key with another request is refused (422), and a retry while the first still runs
 * is told so (409). Answers of 5xx and unexpected failures are not kept, so the retry runs again.
 */
export async function runIdempotent(
  db: Db,
  claim: { apiKeyId: number; key: string; fingerprint: Buffer; keepHours: number; now: Date },
  run: () => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  if (!KEY_PATTERN.test(claim.key))
    throw new AppError(400, 'VALIDATION', { issues: [{ path: 'Idempotency-Key', message: 'Must be 1 to 255 visible ASCII characters' }] });
  await db('idempotency_keys')
    .where('api_key_id', claim.apiKeyId)
    .where('created_at', '<', new Date(claim.now.getTime() - claim.keepHours * 3_600_000))
    .delete();
  const claimed = await db('idempotency_keys')
    .insert({ api_key_id: claim.apiKeyId, key: claim.key, request_hash: claim.fingerprint, created_at: claim.now })
    .onConflict(['api_key_id', 'key'])
    .ignore()
    .returning('key');
  if (claimed.length === 0) return { ...(await storedAnswer(db, claim)), replayed: true };

  const forget = () => db('idempotency_keys').where({ api_key_id: claim.apiKeyId, key: claim.key }).delete();
  let answer: StoredAnswer;
  try {
    answer = await run();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      answer = { status: error.status, body: { code: error.code, ...error.extra } };
      await keep(db, claim, answer);
    } else {
      await forget();
    }
    throw error;
  }
  if (answer.status >= 500) await forget();
  else await keep(db, claim, answer);
  return { ...answer, replayed: false };
}

async function keep(db: Db, claim: { apiKeyId: number; key: string }, answer: StoredAnswer): Promise<void> {
  await db('idempotency_keys')
    .where({ api_key_id: claim.apiKeyId, key: claim.key })
    .update({ status: answer.status, response: JSON.stringify(answer.body ?? null) });
}

async function storedAnswer(db: Db, claim: { apiKeyId: number; key: string; fingerprint: Buffer }): Promise<StoredAnswer> {
  const row: { request_hash: Buffer; status: number | null; response: unknown } | undefined = await db('idempotency_keys')
    .where({ api_key_id: claim.apiKeyId, key: claim.key })
    .first('request_hash', 'status', 'response');
  if (!row) throw new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  if (!row.request_hash.equals(claim.fingerprint)) throw new AppError(422, 'IDEMPOTENCY_KEY_REUSED');
  if (row.status === null) throw new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  return { status: row.status, body: row.response };
}
