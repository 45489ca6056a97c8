import type { IntlShape } from '@formatjs/intl';

/**
 * "120 MB" / "1,5 GB": device storage in decimal units, as the operating system shows it (the
 * upload page formats file sizes the same way; a feature keeps its own copy of so small a rule).
 */
export function formatStorage(intl: Pick<IntlShape, 'formatNumber'>, bytes: number): string {
  const gigabytes = bytes >= 1e9;
  return intl.formatNumber(gigabytes ? bytes / 1e9 : bytes / 1e6, {
    style: 'unit',
    unit: gigabytes ? 'gigabyte' : 'megabyte',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  });
}
