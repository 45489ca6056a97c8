import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../client/lib/sha256';
import { checkNewPassword } from '../../common/validation/password';
import { AppError } from '../lib/errors';
import {
  buildPasswordDenyList,
  loadPasswordDenyList,
  passwordDenyList,
  refuseCommonPassword,
  type PasswordDenyList,
} from './password-deny-list';

let list: PasswordDenyList;
beforeAll(async () => {
  list = await passwordDenyList();
});

/** Hashed as the browser does before sending (client/lib/sha256.ts). */
const denied = async (password: string) => list.has(await sha256Hex(password));

describe('the password deny-list', () => {
  it('holds at least the top 100,000 of the breach list', () => {
    expect(list.size).toBeGreaterThanOrEqual(100_000);
  });

  it.each(['123456', 'password', 'qwerty', 'Password1'])('refuses %s from the head of the list', async (password) => {
    expect(await denied(password)).toBe(true);
  });

  it('refuses a breached password of 12 or more characters that the form lets through', async () => {
    // Line 101,782 of the 1M list: beyond the top 100,000, kept because the browser's rule accepts it.
    expect(checkNewPassword('splintercell')).toBeNull();
    expect(await denied('splintercell')).toBe(true);
  });

  it('refuses a listed password with its first letter upper-cased, though the file has only the lower-case one', async () => {
    expect(await denied('monkey123')).toBe(true);
    expect(await denied('Monkey123')).toBe(true);
  });

  it('matches what the browser hashes from non-ASCII text (UTF-8)', async () => {
    // Line 47,239 of the list, "a" followed by two Latin-1 symbols.
    expect(await denied('a\u00aa\u00bb')).toBe(true);
  });

  it('allows a random password and anything that is not a SHA-256', async () => {
    expect(await denied(randomBytes(30).toString('base64'))).toBe(false);
    expect(await denied('Kalafior na parze 7')).toBe(false);
    expect(list.has('password')).toBe(false);
  });

  it('reads upper-case hex like lower-case, so no spelling of a listed hash slips through', async () => {
    expect(list.has((await sha256Hex('password')).toUpperCase())).toBe(true);
  });

  it('is built once per process', async () => {
    expect(await passwordDenyList()).toBe(list);
  });

  it('builds in slices, letting the event loop run in between', async () => {
    const source = Buffer.from(Array.from({ length: 30_000 }, (_, index) => `haslo-${index}-do-portalu`).join('\n'));
    let turns = 0;
    let building = true;
    const countTurns = () => {
      turns += 1;
      if (building) setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const built = await buildPasswordDenyList(source);
    building = false;
    expect(built.has(await sha256Hex('haslo-7-do-portalu'))).toBe(true);
    expect(built.has(await sha256Hex('Haslo-7-do-portalu'))).toBe(true);
    expect(turns).toBeGreaterThan(1);
  });

  it('fails loudly when its source file is missing, instead of allowing every password', async () => {
    await expect(loadPasswordDenyList('/nonexistent/10_million_password_list_top_1M.txt')).rejects.toThrow(
      /password deny-list cannot be read/,
    );
  });
});

describe('refuseCommonPassword', () => {
  it('answers a listed password as 400 VALIDATION on the named field', async () => {
    const refusal = await refuseCommonPassword(await sha256Hex('password'), 'newPassword').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      extra: { issues: [{ path: 'newPassword', message: 'validation.password.common' }] },
    });
  });

  it('lets any other password through', async () => {
    await expect(refuseCommonPassword(await sha256Hex('Kalafior na parze 7'), 'password')).resolves.toBeUndefined();
  });
});
