import { createHmac } from 'node:crypto';

/**
 * Access codes are secrets (DECISIONS.md 6): only this keyed hash is stored and looked up, so a
 * copy of the database alone cannot be turned back into working codes. Codes are case sensitive
 * and compared exactly as typed.
 */
export function hashAccessCode(secret: string, code: string): Buffer {
  return createHmac('sha256', secret).update(code, 'utf8').digest();
}
