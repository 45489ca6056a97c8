/**
 * The cookie-consent cookie (spec sections 1, 4, 9): 365 days, Secure, SameSite=Lax, path /.
 * Its value records which choice was made and when, so a later change of the cookie policy can
 * ask again (bump CONSENT_VERSION).
 */
export const CONSENT_COOKIE_NAME = 'portal.cookie-consent';
export const SESSION_COOKIE_NAME = 'portal.sid';
/** A visitor's CSRF nonce, set by the server before sign-in (server/auth/anonymous-csrf.ts). */
export const VISITOR_CSRF_COOKIE_NAME = 'portal.csrf';
/** Set at sign-in, kept for a year: lets a known browser sign in while others guess (server/auth/device-cookie.ts). */
export const DEVICE_COOKIE_NAME = 'portal.device';
export const CONSENT_LIFETIME_DAYS = 365;
const CONSENT_VERSION = 1;

export type ConsentChoice = 'allow-all' | 'reject-all' | 'custom';
const CHOICES: readonly ConsentChoice[] = ['allow-all', 'reject-all', 'custom'];

export type StoredConsent = { version: number; choice: ConsentChoice; decidedAt: string };

export function parseConsentCookie(cookieHeader: string): StoredConsent | null {
  const entry = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE_NAME}=`));
  if (!entry) return null;
  try {
    const value = JSON.parse(decodeURIComponent(entry.slice(CONSENT_COOKIE_NAME.length + 1))) as Partial<StoredConsent>;
    if (value.version !== CONSENT_VERSION || !CHOICES.includes(value.choice as ConsentChoice)) return null;
    return { version: value.version, choice: value.choice as ConsentChoice, decidedAt: String(value.decidedAt) };
  } catch {
    return null; // unreadable: ask again
  }
}

export function serializeConsentCookie(choice: ConsentChoice, now: Date, secure: boolean): string {
  const value = encodeURIComponent(JSON.stringify({ version: CONSENT_VERSION, choice, decidedAt: now.toISOString() }));
  const maxAge = CONSENT_LIFETIME_DAYS * 24 * 60 * 60;
  // Secure needs a secure context; http://localhost counts as one, a plain-http LAN address does
  // not, and there the browser would drop the cookie and ask on every visit.
  return `${CONSENT_COOKIE_NAME}=${value}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function readConsent(): StoredConsent | null {
  return typeof document === 'undefined' ? null : parseConsentCookie(document.cookie);
}

export function writeConsent(choice: ConsentChoice): void {
  document.cookie = serializeConsentCookie(choice, new Date(), window.isSecureContext);
}
