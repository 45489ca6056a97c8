import { z } from 'zod';

/** The city search starts from two typed characters (spec sections 5 and 9). */
export const CITY_SEARCH_MIN_LENGTH = 2;
const CITY_SEARCH_MAX_LENGTH = 100;

/** `GET /api/screening/cities?provinceTid&cityName`: a province's TERYT code and what she typed. */
export const citySearchSchema = z.object({
  provinceTid: z.string({ error: 'errors.generic' }).regex(/^\d{2}$/, 'errors.generic'),
  cityName: z
    .string({ error: 'errors.generic' })
    .trim()
    .min(CITY_SEARCH_MIN_LENGTH, 'errors.generic')
    .max(CITY_SEARCH_MAX_LENGTH, 'errors.generic'),
});

const POLISH_LETTERS: Readonly<Record<string, string>> = { ą: 'a', ć: 'c', ę: 'e', ł: 'l', ń: 'n', ó: 'o', ś: 's', ź: 'z', ż: 'z' };

/**
 * A place name as the search compares it: lower case, Polish letters as their base letter ("Łódź"
 * is "lodz"). The same folding as the `search_name` column of db/migrations/005.
 */
export function foldPlaceName(text: string): string {
  return text.toLowerCase().replace(/[ąćęłńóśźż]/g, (letter) => POLISH_LETTERS[letter]!);
}
