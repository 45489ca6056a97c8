import { hash, verify } from '@node-rs/argon2';

/**
 * The browser sends SHA-256 (hex) of what the user typed; that hex string is the password as far
 * as the server is concerned, and only its argon2id hash is stored. @node-rs/argon2 defaults to
 * argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane); spelled out so a library default
 * change cannot weaken stored hashes silently.
 */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(sha256hex: string): Promise<string> {
  return hash(sha256hex, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, sha256hex: string): Promise<boolean> {
  try {
    return await verify(passwordHash, sha256hex);
  } catch {
    // A malformed stored hash must read as "wrong password", never as a 500 that tells them apart.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real check when the login names no account, so response time does
 * not reveal which emails are registered.
 */
export async function verifyAgainstDummy(sha256hex: string): Promise<false> {
  dummyHash ??= hashPassword('0'.repeat(64));
  await verifyPassword(await dummyHash, sha256hex);
  return false;
}
