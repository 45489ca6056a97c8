import { describe, expect, it } from 'vitest';
import { isIdentityDocumentNumber, isPolishIdCardNumber, isPolishPassportNumber } from './identity-documents';

describe('identity document numbers', () => {
  it('accepts identity cards whose check digit holds, typed in any case and with spaces', () => {
    expect(isPolishIdCardNumber('ABA300000')).toBe(true);
    expect(isPolishIdCardNumber('aba 300000')).toBe(true);
    expect(isPolishIdCardNumber('ABS123456')).toBe(true);
  });

  it('refuses identity cards with a wrong check digit or shape', () => {
    expect(isPolishIdCardNumber('ABA400000')).toBe(false);
    expect(isPolishIdCardNumber('ABS123457')).toBe(false);
    expect(isPolishIdCardNumber('AB1234567')).toBe(false);
    expect(isPolishIdCardNumber('ABA30000')).toBe(false);
  });

  it('accepts passports whose check digit holds and refuses a changed digit', () => {
    expect(isPolishPassportNumber('AA0000000')).toBe(true);
    expect(isPolishPassportNumber('ZS0000177')).toBe(true);
    expect(isPolishPassportNumber('ZS0000178')).toBe(false);
  });

  it('takes either document', () => {
    expect(isIdentityDocumentNumber('ABA300000')).toBe(true);
    expect(isIdentityDocumentNumber('ZS0000177')).toBe(true);
    expect(isIdentityDocumentNumber('XYZ')).toBe(false);
  });
});
