import { describe, expect, it } from 'vitest';
import { createKeys, open, PIN_ITERATIONS, seal, unwrapPrivateKey, WrongPinError } from './sealed-box';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Whether `needle` occurs anywhere in `haystack`, byte for byte. */
function contains(haystack: ArrayBuffer | Uint8Array, needle: Uint8Array): boolean {
  const bytes = haystack instanceof Uint8Array ? haystack : new Uint8Array(haystack);
  outer: for (let start = 0; start + needle.length <= bytes.length; start++) {
    for (let index = 0; index < needle.length; index++) if (bytes[start + index] !== needle[index]) continue outer;
    return true;
  }
  return false;
}

describe('sealed box', () => {
  it('wraps the private key with 600,000 PBKDF2 iterations and a random salt by default', async () => {
    const [first, second] = await Promise.all([createKeys('482915'), createKeys('482915')]);
    expect(first.privateKey.iterations).toBe(PIN_ITERATIONS);
    expect(PIN_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(first.privateKey.salt).toHaveLength(16);
    expect(first.privateKey.salt).not.toEqual(second.privateKey.salt);
    expect(first.publicKey.byteLength).toBe(65);
  });

  it('seals with the public key alone and opens with the private key the right PIN unwraps', async () => {
    const keys = await createKeys('482915');
    const plain = encoder.encode('%PDF-1.7 Maria Kowalska, BI-RADS 2');
    const sealed = await seal(keys.publicKey, plain, 'u:1\ndocument doc-en');
    const privateKey = await unwrapPrivateKey(keys, '482915');
    expect(decoder.decode(await open(privateKey, sealed, 'u:1\ndocument doc-en'))).toBe('%PDF-1.7 Maria Kowalska, BI-RADS 2');
    // Not to be written out again, not even by the page that holds it.
    expect(privateKey.extractable).toBe(false);
  });

  it('refuses a wrong PIN', async () => {
    const keys = await createKeys('482915');
    await expect(unwrapPrivateKey(keys, '482916')).rejects.toBeInstanceOf(WrongPinError);
    await expect(unwrapPrivateKey(keys, '')).rejects.toBeInstanceOf(WrongPinError);
  });

  it('stores nothing readable: no plain bytes in a sealed copy, no key in clear', async () => {
    const keys = await createKeys('482915');
    const name = encoder.encode('Kowalska');
    const plain = encoder.encode(`%PDF-1.7 ${'Kowalska '.repeat(50)}`);
    const sealed = await seal(keys.publicKey, plain, 'u:1\ndocument doc-en');
    expect(contains(sealed.data, name)).toBe(false);
    expect(contains(sealed.data, encoder.encode('%PDF'))).toBe(false);
    // Two seals of the same bytes share nothing (a fresh key and IV each time).
    const again = await seal(keys.publicKey, plain, 'u:1\ndocument doc-en');
    expect(new Uint8Array(again.data)).not.toEqual(new Uint8Array(sealed.data));
    expect(new Uint8Array(again.ephemeralKey)).not.toEqual(new Uint8Array(sealed.ephemeralKey));
    // The wrapped private key is not the key: it does not import as one.
    await expect(
      crypto.subtle.importKey('pkcs8', keys.privateKey.data, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']),
    ).rejects.toThrow();
  });

  it('opens a copy only in its own context and only with its owner’s key', async () => {
    const [hers, another] = await Promise.all([createKeys('482915'), createKeys('739104')]);
    const sealed = await seal(hers.publicKey, encoder.encode('her result'), 'u:1\nscreening 7');
    const [herKey, otherKey] = await Promise.all([unwrapPrivateKey(hers, '482915'), unwrapPrivateKey(another, '739104')]);
    await expect(open(herKey, sealed, 'u:2\nscreening 7')).rejects.toThrow();
    await expect(open(otherKey, sealed, 'u:1\nscreening 7')).rejects.toThrow();
    const tampered = new Uint8Array(sealed.data.slice(0));
    tampered[0]! ^= 1;
    await expect(open(herKey, { ...sealed, data: tampered.buffer }, 'u:1\nscreening 7')).rejects.toThrow();
  });
});
