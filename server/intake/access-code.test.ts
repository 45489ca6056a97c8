import { describe, expect, it } from 'vitest';
import { resultLoginSchema } from '../../common/validation/auth';
import { ACCESS_CODE_ALPHABET, generateAccessCode, PROVIDER_ACCESS_CODE } from './access-code';

describe('generateAccessCode', () => {
  it('makes 8 characters of the unambiguous alphabet, which the result login accepts', () => {
    for (let index = 0; index < 200; index += 1) {
      const code = generateAccessCode();
      expect(code).toHaveLength(8);
      expect([...code].every((character) => ACCESS_CODE_ALPHABET.includes(character))).toBe(true);
      expect(PROVIDER_ACCESS_CODE.test(code)).toBe(true);
      expect(resultLoginSchema.unwrap().shape.accessCode.safeParse(code).success).toBe(true);
    }
  });

  it('never uses characters a patient could misread', () => {
    for (const character of '0O1Il') expect(ACCESS_CODE_ALPHABET).not.toContain(character);
    expect(new Set(ACCESS_CODE_ALPHABET).size).toBe(ACCESS_CODE_ALPHABET.length);
  });

  it('draws every character of the alphabet and rarely repeats a code', () => {
    const codes = Array.from({ length: 2000 }, generateAccessCode);
    expect(new Set(codes).size).toBe(codes.length);
    const seen = new Set(codes.join(''));
    expect(seen.size).toBe(ACCESS_CODE_ALPHABET.length);
  });
});
