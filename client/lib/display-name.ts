import type { SessionUser } from '@common/types/session';

/** "anna" -> "Anna", "NOWAK-kowalska" -> "Nowak-Kowalska": each part of a name gets one capital. */
export function capitalizeName(name: string): string {
  return name
    .trim()
    .toLocaleLowerCase('pl')
    .replace(/(^|[\s-])(\p{L})/gu, (_, separator: string, letter: string) => separator + letter.toLocaleUpperCase('pl'));
}

/**
 * Spec section 2: the capitalised first and last name, else the email, else null (the caller
 * shows the translated GUEST).
 */
export function displayName(user: Pick<SessionUser, 'personalData' | 'email'> | null): string | null {
  const first = user?.personalData?.firstName?.trim() ?? '';
  const last = user?.personalData?.lastName?.trim() ?? '';
  const fullName = [first, last].filter(Boolean).map(capitalizeName).join(' ');
  if (fullName) return fullName;
  return user?.email?.trim() || null;
}
