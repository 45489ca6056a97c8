import { createHash, randomBytes } from 'node:crypto';

/** Every key starts so: a secret scanner (and a person) can tell it is this portal's key. */
const KEY_TAG = 'mpk_';
const PREFIX_LENGTH = KEY_TAG.length + 8;
const KEY_PATTERN = /^mpk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{43}$/;

/**
 * A new key: `mpk_<8 characters>_<32 random bytes, base64url>`. The first part (`prefix`) is
 * stored and shown in lists so staff can tell keys apart; the whole key is shown once and only
 * its SHA-256 is stored. With 256 random bits a fast hash is as safe as a slow one, and a call
 * costs one hash instead of an argon2 run.
 */
export function generateApiKey(): { key: string; prefix: string; secretHash: Buffer } {
  const prefix = `${KEY_TAG}${randomBytes(6).toString('base64url')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, secretHash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A bearer token that cannot be a key is refused without a database lookup. */
export function looksLikeApiKey(token: string): boolean {
  return KEY_PATTERN.test(token) && token.length > PREFIX_LENGTH;
}
