import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

// Intl puts no-break spaces between the amount and the currency; the test compares plain text.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('formatMoney', () => {
  it('shows grosze as zloty in the UI language', () => {
    expect(plain(formatMoney({ amountGrosze: 4900, currency: 'PLN' }, 'en'))).toBe('PLN 49.00');
    expect(plain(formatMoney({ amountGrosze: 12_345, currency: 'PLN' }, 'pl'))).toBe('123,45 zł');
  });
});
