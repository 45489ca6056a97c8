import { describe, expect, it } from 'vitest';
import { capitalizeName, displayName } from './display-name';

const personalData = { firstName: 'anna', lastName: 'NOWAK-kowalska', birthAt: '1970-01-01', pesel: null, email: null, phoneNumber: null };

describe('the name in the user menu', () => {
  it('shows the first and last name with capitals, also after a hyphen', () => {
    expect(displayName({ personalData, email: 'anna@example.com' })).toBe('Anna Nowak-Kowalska');
  });

  it('keeps Polish letters when capitalising', () => {
    expect(capitalizeName('łucja żak')).toBe('Łucja Żak');
  });

  it('falls back to the email when there is no name', () => {
    expect(displayName({ personalData: null, email: 'ewa@example.com' })).toBe('ewa@example.com');
    expect(displayName({ personalData: { ...personalData, firstName: ' ', lastName: '' }, email: 'ewa@example.com' })).toBe(
      'ewa@example.com',
    );
  });

  it('has no name for a guest, so the menu shows GUEST', () => {
    expect(displayName({ personalData: null, email: null })).toBeNull();
    expect(displayName(null)).toBeNull();
  });
});
