/**
 * Numbers of Polish identity documents with their check digit (DECISIONS.md 9): the identity card
 * (dowód osobisty: three letters and six digits, the first digit checks the rest) and the passport
 * (two letters and seven digits, the first digit checks the rest). Letters count A=10 ... Z=35;
 * weighted by 7, 3, 1 (card) or 7, 3 (passport) in turn, with the check digit weighted 9 (that is,
 * -1 modulo 10), so a valid number sums to a multiple of ten.
 */
const ID_CARD_WEIGHTS = [7, 3, 1, 9, 7, 3, 1, 7, 3];
const PASSPORT_WEIGHTS = [7, 3, 9, 1, 7, 3, 1, 7, 3];

function characterValue(character: string): number {
  const code = character.charCodeAt(0);
  return code >= 65 ? code - 55 : code - 48;
}

function checksumHolds(value: string, weights: readonly number[]): boolean {
  const sum = [...value].reduce((total, character, index) => total + characterValue(character) * weights[index]!, 0);
  return sum % 10 === 0;
}

/** Spaces and dashes as people type them are ignored; letters in any case. */
export function normalizeDocumentNumber(raw: string): string {
  return raw.replace(/[\s-]+/g, '').toUpperCase();
}

export function isPolishIdCardNumber(raw: string): boolean {
  const value = normalizeDocumentNumber(raw);
  return /^[A-Z]{3}\d{6}$/.test(value) && checksumHolds(value, ID_CARD_WEIGHTS);
}

export function isPolishPassportNumber(raw: string): boolean {
  const value = normalizeDocumentNumber(raw);
  return /^[A-Z]{2}\d{7}$/.test(value) && checksumHolds(value, PASSPORT_WEIGHTS);
}

export function isIdentityDocumentNumber(raw: string): boolean {
  return isPolishIdCardNumber(raw) || isPolishPassportNumber(raw);
}
