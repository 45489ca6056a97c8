import { describe, expect, it } from 'vitest';
import { documentQuery, isCalendarDay, patientBody } from './schemas';

describe('isCalendarDay', () => {
  it('accepts real days only', () => {
    expect(isCalendarDay('1971-03-14')).toBe(true);
    expect(isCalendarDay('2000-02-29')).toBe(true);
    expect(isCalendarDay('1971-02-29')).toBe(false);
    expect(isCalendarDay('1971-13-01')).toBe(false);
    expect(isCalendarDay('14.03.1971')).toBe(false);
  });
});

describe('patientBody', () => {
  const patient = { firstName: 'Anna', lastName: 'Testowa', birthAt: '1970-05-06' };

  it('takes a PESEL with a right check digit that encodes birthAt', () => {
    expect(patientBody.safeParse({ ...patient, pesel: '70050612340' }).success).toBe(true);
  });

  it('refuses a wrong check digit, another birth date and a PESEL of the 2000s for a 1900s birth', () => {
    const issues = (pesel: string) => patientBody.safeParse({ ...patient, pesel }).error?.issues.map((issue) => issue.message);
    expect(issues('70050612341')).toEqual(['The PESEL check digit is wrong.']);
    expect(issues('70050712347')).toEqual(['The PESEL encodes another date of birth than birthAt.']);
  });

  it('refuses unknown fields and a phone number without +', () => {
    expect(patientBody.safeParse({ ...patient, nickname: 'A' }).success).toBe(false);
    expect(patientBody.safeParse({ ...patient, phoneNumber: '600100200' }).success).toBe(false);
  });
});

describe('documentQuery', () => {
  it('defaults the language to pl and allows another only for a description', () => {
    expect(documentQuery.parse({ kind: 'referral' })).toEqual({ kind: 'referral', language: 'pl' });
    expect(documentQuery.parse({ kind: 'description', language: 'de' })).toEqual({ kind: 'description', language: 'de' });
    expect(documentQuery.safeParse({ kind: 'facilities_list', language: 'en' }).success).toBe(false);
  });
});
