import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * PayU's `OpenPayu-Signature` header (REST API v2.1): `sender=checkout;signature=<hex>;
 * algorithm=<alg>;content=DOCUMENT`, where the signature is the hash of the raw body followed by
 * the point of sale's second key. The sandbox signs its notifications the same way.
 */
const ALGORITHMS: Record<string, string> = {
  MD5: 'md5',
  SHA: 'sha1',
  SHA1: 'sha1',
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  SHA256: 'sha256',
};

export function signOpenPayu(body: Buffer | string, secondKey: string, algorithm: 'MD5' | 'SHA-256' = 'SHA-256'): string {
  const signature = digest(ALGORITHMS[algorithm]!, body, secondKey);
  return `sender=checkout;signature=${signature};algorithm=${algorithm};content=DOCUMENT`;
}

/** Whether the header's signature is the body's; compared in constant time. Never throws. */
export function verifyOpenPayuSignature(rawBody: Buffer, header: string | undefined, secondKey: string): boolean {
  if (!header) return false;
  const fields = new Map(
    header.split(';').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()] as const;
    }),
  );
  const signature = fields.get('signature')?.toLowerCase();
  const algorithm = ALGORITHMS[(fields.get('algorithm') ?? 'MD5').toUpperCase()];
  if (!signature || !algorithm || !/^[0-9a-f]+$/.test(signature)) return false;
  const expected = Buffer.from(digest(algorithm, rawBody, secondKey), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function digest(algorithm: string, body: Buffer | string, secondKey: string): string {
  return createHash(algorithm).update(body).update(secondKey).digest('hex');
}
