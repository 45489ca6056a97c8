import { describe, expect, it } from 'vitest';
import en from '../../client/i18n/en.json';
import pl from '../../client/i18n/pl.json';
import { checkNewPassword, MIN_PASSWORD_LENGTH, passwordChangeFormSchema, passwordChangeSchema } from './password';

const hex = (char: string) => char.repeat(64);

function fieldMessages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));
}

describe('checkNewPassword', () => {
  it('accepts a long password nobody else uses', () => {
    expect(checkNewPassword('Kalafior na parze 7')).toBeNull();
    expect(checkNewPassword('Mammo!2024demo')).toBeNull();
  });

  it(`refuses passwords shorter than ${MIN_PASSWORD_LENGTH} characters, counting letters not bytes`, () => {
    expect(checkNewPassword('Krótkie1!')).toBe('validation.password.tooShort');
    expect(checkNewPassword('x'.repeat(MIN_PASSWORD_LENGTH - 1))).toBe('validation.password.tooShort');
    // 12 Polish letters are 12 characters even though some take two bytes
    expect(checkNewPassword('żółćgęśląjaź')).toBeNull();
  });

  it('says in both catalogs how long a password must be', () => {
    expect(en['validation.password.tooShort']).toContain(String(MIN_PASSWORD_LENGTH));
    expect(pl['validation.password.tooShort']).toContain(String(MIN_PASSWORD_LENGTH));
  });

  it.each([
    'password1234',
    'qwertyuiop123',
    'administrator',
    '1qaz2wsx3edc',
    'zaq12wsxcde3',
    // common words padded with digits and symbols, any case, with or without diacritics
    'Haslo1234567',
    'Hasło1234567!',
    'POLSKA123456',
    'polska2024!!',
    '2024Kochanie!',
    'qwerty123456',
    'zaq12wsx2024',
    // runs and repetitions
    'aaaaaaaaaaaa',
    'abcabcabcabc',
    '123456789012',
    '210987654321',
    'qwertyuiopas',
    'abcdefghijklm',
  ])('refuses the common password %s', (password) => {
    expect(checkNewPassword(password)).toBe('validation.password.common');
  });

  it('refuses the login or the name part of an email login, ignoring case', () => {
    expect(checkNewPassword('Anna.Nowak@Example.com', { login: 'anna.nowak@example.com' })).toBe('validation.password.sameAsLogin');
    expect(checkNewPassword('anna.nowak.portal', { login: 'Anna.Nowak.Portal@example.com' })).toBe('validation.password.sameAsLogin');
    expect(checkNewPassword('anna.nowak.portal')).toBeNull();
  });
});

describe('passwordChangeFormSchema', () => {
  const schema = passwordChangeFormSchema({ login: 'anna.nowak@example.com' });

  it('accepts a strong new password confirmed twice', () => {
    const result = schema.safeParse({ oldPassword: 'Mammo!2024demo', newPassword: 'Kalafior na parze 7', confirm: 'Kalafior na parze 7' });
    expect(result.success).toBe(true);
  });

  it('names every empty field at once', () => {
    expect(fieldMessages(schema.safeParse({ oldPassword: '', newPassword: '', confirm: '' }))).toEqual({
      oldPassword: 'validation.password.oldRequired',
      newPassword: 'validation.password.required',
      confirm: 'validation.password.confirmRequired',
    });
  });

  it('puts the mismatch under the confirmation and the weakness under the new password', () => {
    expect(fieldMessages(schema.safeParse({ oldPassword: '', newPassword: 'haslo123', confirm: 'haslo124' }))).toEqual({
      oldPassword: 'validation.password.oldRequired',
      newPassword: 'validation.password.tooShort',
      confirm: 'validation.password.mismatch',
    });
  });

  it('refuses the old password as the new one', () => {
    const same = 'Kalafior na parze 7';
    expect(fieldMessages(schema.safeParse({ oldPassword: same, newPassword: same, confirm: same }))).toEqual({
      newPassword: 'validation.password.sameAsOld',
    });
  });

  it('uses only messages present in both catalogs', () => {
    const keys = [
      'validation.password.oldRequired',
      'validation.password.confirmRequired',
      'validation.password.mismatch',
      'validation.password.common',
      'validation.password.sameAsLogin',
      'validation.password.sameAsOld',
    ];
    for (const key of keys) {
      expect(en).toHaveProperty([key]);
      expect(pl).toHaveProperty([key]);
    }
    expect(en['validation.password.mismatch']).toBe('The two passwords that you entered do not match!');
  });
});

describe('passwordChangeSchema (what the server accepts)', () => {
  it('accepts three SHA-256 hex values where confirm equals new and new differs from old', () => {
    expect(passwordChangeSchema.safeParse({ oldPassword: hex('a'), newPassword: hex('b'), confirm: hex('b') }).success).toBe(true);
  });

  it('refuses plain passwords that were not hashed in the browser', () => {
    expect(
      fieldMessages(passwordChangeSchema.safeParse({ oldPassword: 'Mammo!2024demo', newPassword: hex('b'), confirm: hex('b') })),
    ).toEqual({
      oldPassword: 'validation.password.notHashed',
    });
  });

  it('refuses a confirmation that differs and a new password equal to the old one', () => {
    expect(fieldMessages(passwordChangeSchema.safeParse({ oldPassword: hex('a'), newPassword: hex('b'), confirm: hex('c') }))).toEqual({
      confirm: 'validation.password.mismatch',
    });
    expect(fieldMessages(passwordChangeSchema.safeParse({ oldPassword: hex('a'), newPassword: hex('a'), confirm: hex('a') }))).toEqual({
      newPassword: 'validation.password.sameAsOld',
    });
  });

  it('names missing fields', () => {
    expect(fieldMessages(passwordChangeSchema.safeParse({}))).toEqual({
      oldPassword: 'validation.password.oldRequired',
      newPassword: 'validation.password.required',
      confirm: 'validation.password.confirmRequired',
    });
  });
});
