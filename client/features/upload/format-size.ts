import type { IntlShape } from '@formatjs/intl';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** "2.4 MB" / "2,4 MB" in decimal units, as operating systems show file sizes today. */
export function formatSize(intl: Pick<IntlShape, 'formatNumber'>, bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return intl.formatNumber(value, {
    style: 'unit',
    unit: UNITS[unit],
    // "800 bytes" / "800 bajtów": the short form of byte is not abbreviated in every language.
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  });
}
