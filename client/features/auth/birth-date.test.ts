import { describe, expect, it } from 'vitest';
import { formatBirthDateInput, resultLoginSchema } from '@common/validation/auth';

/** What the birth-date field shows after each keystroke of a run of digits. */
function typeDigits(digits: string): string[] {
  let value = '';
  return [...digits].map((digit) => (value = formatBirthDateInput(value + digit)));
}

describe('birth date typing', () => {
  it('inserts the dashes as the digits run on', () => {
    expect(typeDigits('19680412')).toEqual(['1', '19', '196', '1968', '1968-0', '1968-04', '1968-04-1', '1968-04-12']);
  });

  it('keeps a typed or pasted date, drops letters and stops at eight digits', () => {
    expect(formatBirthDateInput('1968-04-12')).toBe('1968-04-12');
    expect(formatBirthDateInput('1968/04/12')).toBe('1968-04-12');
    expect(formatBirthDateInput('19680412999')).toBe('1968-04-12');
    expect(formatBirthDateInput('19a68')).toBe('1968');
  });

  it('lets backspace remove a dash without leaving a broken date', () => {
    // deleting the dash of "1968-" leaves "1968"; deleting the last digit of "1968-0" leaves "1968"
    expect(formatBirthDateInput('1968')).toBe('1968');
    expect(formatBirthDateInput('1968-')).toBe('1968');
  });

  it('accepts only real months and days in the login schema', () => {
    const base = { accessCode: 'Xk7mP2qa', portalTerms: true, policyTerms: true };
    expect(resultLoginSchema.safeParse({ ...base, birthAt: '1968-04-12' }).success).toBe(true);
    for (const birthAt of ['1968-13-01', '1968-00-10', '1968-04-32', '1968-04-00', '1968-4-12', '']) {
      const parsed = resultLoginSchema.safeParse({ ...base, birthAt });
      expect(parsed.success, birthAt).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('validation.birthAt.invalid');
    }
  });
});
