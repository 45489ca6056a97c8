const WEIGHTS = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];

/** PESEL, the Polish national identification number: eleven digits, the last one a check digit. */
export function isValidPesel(pesel: string): boolean {
  if (!/^\d{11}$/.test(pesel)) return false;
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(pesel[index]), 0);
  return (10 - (sum % 10)) % 10 === Number(pesel[10]);
}

/** The birth date a PESEL encodes: the month carries the century (+20 for 2000-2099). */
export function peselBirthDate(pesel: string): string {
  const year = Number(pesel.slice(0, 2));
  const encodedMonth = Number(pesel.slice(2, 4));
  const century = encodedMonth > 80 ? 1800 : encodedMonth > 60 ? 2200 : encodedMonth > 40 ? 2100 : encodedMonth > 20 ? 2000 : 1900;
  const month = encodedMonth % 20;
  return `${century + year}-${String(month).padStart(2, '0')}-${pesel.slice(4, 6)}`;
}

/** The tenth digit is even for women. */
export function peselIsFemale(pesel: string): boolean {
  return Number(pesel[9]) % 2 === 0;
}
