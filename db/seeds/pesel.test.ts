import { describe, expect, it } from 'vitest';
import { isValidPesel, peselBirthDate, peselIsFemale } from './pesel';

describe('PESEL', () => {
  it('accepts a number whose check digit matches and rejects any single changed digit', () => {
    expect(isValidPesel('62072304688')).toBe(true);
    expect(isValidPesel('62072304681')).toBe(false);
    expect(isValidPesel('6207230468')).toBe(false);
    expect(isValidPesel('6207230468a')).toBe(false);
  });

  it('reads the birth date, including the century encoded in the month, and the sex', () => {
    expect(peselBirthDate('68041209860')).toBe('1968-04-12');
    expect(peselBirthDate('02271409867')).toBe('2002-07-14');
    expect(peselIsFemale('68041209860')).toBe(true);
  });
});
