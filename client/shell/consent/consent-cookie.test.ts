import { describe, expect, it } from 'vitest';
import { CONSENT_COOKIE_NAME, parseConsentCookie, serializeConsentCookie } from './consent-cookie';

const now = new Date('2026-11-20T10:00:00Z');

function cookiePair(setCookie: string): string {
  return setCookie.split(';')[0] as string;
}

describe('the cookie-consent cookie', () => {
  it('lasts 365 days, is Secure and SameSite=Lax for the whole site', () => {
    const cookie = serializeConsentCookie('allow-all', now, true);
    expect(cookie).toContain(`Max-Age=${365 * 24 * 60 * 60}`);
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Secure');
  });

  it('records which choice was made', () => {
    for (const choice of ['allow-all', 'reject-all', 'custom'] as const) {
      const stored = parseConsentCookie(`other=1; ${cookiePair(serializeConsentCookie(choice, now, true))}`);
      expect(stored).toEqual({ version: 1, choice, decidedAt: now.toISOString() });
    }
  });

  it('asks again when there is no cookie or it cannot be read', () => {
    expect(parseConsentCookie('')).toBeNull();
    expect(parseConsentCookie('portal.sid=abc')).toBeNull();
    expect(parseConsentCookie(`${CONSENT_COOKIE_NAME}=%7Bbroken`)).toBeNull();
    expect(parseConsentCookie(`${CONSENT_COOKIE_NAME}=${encodeURIComponent('{"version":1,"choice":"maybe"}')}`)).toBeNull();
  });
});
