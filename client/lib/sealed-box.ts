/**
 * The encryption of the copies kept on the device (issue 16), with the browser's WebCrypto only.
 *
 * Writing a copy needs no PIN, reading it does: each owner who chose to keep copies has an ECDH
 * P-256 key pair. Its public key is stored in clear, its private key only wrapped (AES-GCM) under
 * a key derived from her PIN (PBKDF2-SHA-256, OWASP's 600,000 iterations, a random salt). Each
 * copy is sealed ECIES-style: a fresh ephemeral key pair agrees a secret with her public key,
 * HKDF turns it into a one-time AES-GCM key, and the ephemeral public key is stored beside the
 * ciphertext. `context` names the record (owner, kind, id) and is authenticated with it, so a
 * ciphertext moved to another record or owner does not open.
 */

/** OWASP Password Storage Cheat Sheet (2023) for PBKDF2-HMAC-SHA256. */
export const PIN_ITERATIONS = 600_000;

type WrappedPrivateKey = {
  salt: Uint8Array;
  iv: Uint8Array;
  iterations: number;
  /** The private key (PKCS #8) encrypted under the PIN's key. */
  data: ArrayBuffer;
};

/** What the device stores of an owner's keys: nothing here opens a copy without the PIN. */
export type StoredKeys = {
  /** The public key, raw (an uncompressed P-256 point). */
  publicKey: ArrayBuffer;
  privateKey: WrappedPrivateKey;
};

export type Sealed = {
  /** The ephemeral public key of this copy, raw. */
  ephemeralKey: ArrayBuffer;
  iv: Uint8Array;
  data: ArrayBuffer;
};

export class WrongPinError extends Error {
  constructor() {
    super('the PIN does not open the keys');
    this.name = 'WrongPinError';
  }
}

const CURVE = { name: 'ECDH', namedCurve: 'P-256' } as const;
const WRAP_CONTEXT = 'portal device keys v1';
const SEAL_INFO = 'portal offline copy v1';
const encoder = new TextEncoder();
const subtle = () => globalThis.crypto.subtle;
const random = (length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length));

async function pinKey(pin: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', encoder.encode(pin), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** A new key pair for an owner, its private key wrapped under `pin`. */
export async function createKeys(pin: string, iterations = PIN_ITERATIONS): Promise<StoredKeys> {
  const pair = await subtle().generateKey(CURVE, true, ['deriveBits']);
  const salt = random(16);
  const iv = random(12);
  const [publicKey, privatePkcs8, wrapping] = await Promise.all([
    subtle().exportKey('raw', pair.publicKey),
    subtle().exportKey('pkcs8', pair.privateKey),
    pinKey(pin, salt, iterations),
  ]);
  const data = await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(WRAP_CONTEXT) }, wrapping, privatePkcs8);
  return { publicKey, privateKey: { salt, iv, iterations, data } };
}

/**
 * The private key, unwrapped with `pin` and held only in memory (not extractable: nothing can
 * write it out again). A wrong PIN fails AES-GCM's authentication: WrongPinError.
 */
export async function unwrapPrivateKey(keys: StoredKeys, pin: string): Promise<CryptoKey> {
  const { salt, iv, iterations, data } = keys.privateKey;
  const wrapping = await pinKey(pin, salt, iterations);
  let pkcs8: ArrayBuffer;
  try {
    pkcs8 = await subtle().decrypt(
      { name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer>, additionalData: encoder.encode(WRAP_CONTEXT) },
      wrapping,
      data,
    );
  } catch {
    throw new WrongPinError();
  }
  return subtle().importKey('pkcs8', pkcs8, CURVE, false, ['deriveBits']);
}

async function copyKey(privateKey: CryptoKey, publicKey: CryptoKey, ephemeralKey: ArrayBuffer): Promise<CryptoKey> {
  const secret = await subtle().deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256);
  const material = await subtle().importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: ephemeralKey, info: encoder.encode(SEAL_INFO) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** `plain` encrypted for the owner of `publicKey`; only her private key opens it. */
export async function seal(publicKey: ArrayBuffer, plain: BufferSource, context: string): Promise<Sealed> {
  const [owner, ephemeral] = await Promise.all([
    subtle().importKey('raw', publicKey, CURVE, false, []),
    subtle().generateKey(CURVE, false, ['deriveBits']),
  ]);
  const ephemeralKey = await subtle().exportKey('raw', ephemeral.publicKey);
  const key = await copyKey(ephemeral.privateKey, owner, ephemeralKey);
  const iv = random(12);
  const data = await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, key, plain);
  return { ephemeralKey, iv, data };
}

/** The plain bytes of `sealed`; fails when the key, the context or the bytes are not the ones sealed. */
export async function open(privateKey: CryptoKey, sealed: Sealed, context: string): Promise<ArrayBuffer> {
  const ephemeral = await subtle().importKey('raw', sealed.ephemeralKey, CURVE, false, []);
  const key = await copyKey(privateKey, ephemeral, sealed.ephemeralKey);
  return subtle().decrypt(
    { name: 'AES-GCM', iv: sealed.iv as Uint8Array<ArrayBuffer>, additionalData: encoder.encode(context) },
    key,
    sealed.data,
  );
}
