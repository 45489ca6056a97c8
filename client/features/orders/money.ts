import type { Money } from '@common/types/orders';

/**
 * A price as the patient reads it in her language ("49,00 zł", "PLN 49.00"). Amounts travel as
 * integer grosze (never floats), so the division happens only here, for display.
 */
export function formatMoney(price: Money, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: price.currency }).format(price.amountGrosze / 100);
}
