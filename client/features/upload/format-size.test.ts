import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size';

describe('formatSize', () => {
  it('writes sizes in decimal units in the language of the page', () => {
    const pl = createIntl({ locale: 'pl', messages: {} });
    const en = createIntl({ locale: 'en', messages: {} });
    expect(formatSize(en, 800)).toBe('800 bytes');
    expect(formatSize(pl, 800)).toBe('800 bajtów');
    expect(formatSize(en, 2_400_000)).toBe('2.4 MB');
    expect(formatSize(pl, 2_400_000)).toBe('2,4 MB');
    expect(formatSize(en, 50_000_000_000)).toBe('50 GB');
  });
});
