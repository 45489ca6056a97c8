import { describe, expect, it } from 'vitest';
import { hashAccessCode } from './access-code';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';

const sent = 'a'.repeat(64);

describe('passwords', () => {
  it('stores argon2id of what the browser sent, salted, and verifies only that', async () => {
    const first = await hashPassword(sent);
    const second = await hashPassword(sent);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword(first, sent)).toBe(true);
    expect(await verifyPassword(first, 'b'.repeat(64))).toBe(false);
  });

  it('reads a damaged stored hash as a wrong password instead of failing', async () => {
    expect(await verifyPassword('$argon2id$garbage', sent)).toBe(false);
  });

  it('always refuses the dummy check that stands in for a missing account', async () => {
    expect(await verifyAgainstDummy('0'.repeat(64))).toBe(false);
  });
});

describe('access codes', () => {
  it('are keyed: the same code gives another hash under another secret, and case matters', () => {
    const hash = hashAccessCode('secret-one', 'Xk7mP2qa');
    expect(hash).toHaveLength(32);
    expect(hashAccessCode('secret-one', 'Xk7mP2qa').equals(hash)).toBe(true);
    expect(hashAccessCode('secret-two', 'Xk7mP2qa').equals(hash)).toBe(false);
    expect(hashAccessCode('secret-one', 'xk7mp2qa').equals(hash)).toBe(false);
  });
});
