import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import { formatStorage } from './format-storage';

describe('formatStorage', () => {
  it('shows megabytes, and gigabytes from a thousand megabytes', () => {
    const intl = createIntl({ locale: 'en' });
    expect(formatStorage(intl, 0)).toBe('0 MB');
    expect(formatStorage(intl, 165_304)).toBe('0.2 MB');
    expect(formatStorage(intl, 2_147_483_648)).toBe('2.1 GB');
  });
});
