import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Config } from '../config';
import { cookieValue } from '../lib/cookies';

const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type AnonymousCsrf = {
  /** The visitor's token, setting her nonce cookie first if she has none yet. */
  issue(req: Request, res: Response): string;
  /** True when the request carries a nonce cookie and `given` is the token made from it. */
  matches(req: Request, given: string): boolean;
  hasCookie(req: Request): boolean;
};

/**
 * The CSRF token of a visitor who is not signed in, kept without a stored session, so a loop of
 * anonymous `GET /api/auth/csrf` costs no row (a session is stored from sign-in on). OWASP's
 * signed double-submit cookie: the browser holds a random nonce in an HttpOnly cookie and the page
 * holds HMAC(key, nonce) as its token; a request passes when its header is the HMAC of its own
 * cookie. Another site can make the browser send the cookie but can read neither it nor the
 * token, and cannot make a token for a nonce without the key. A nonce planted from a subdomain
 * with a token to match gets nowhere either: that page's requests are `same-site`, not
 * `same-origin`, and csrf.ts refuses them before looking at any token.
 */
export const ANONYMOUS_CSRF_COOKIE = 'portal.csrf';

export function createAnonymousCsrf(config: Pick<Config, 'sessionSecret' | 'isProduction'>): AnonymousCsrf {
  // Its own key, derived from the session secret, so a token is never also a valid cookie signature.
  const key = createHmac('sha256', config.sessionSecret).update('portal anonymous CSRF token').digest();
  const tokenOf = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url');
  const nonceOf = (req: Request) => {
    const nonce = cookieValue(req, ANONYMOUS_CSRF_COOKIE);
    return nonce && NONCE_PATTERN.test(nonce) ? nonce : undefined;
  };

  return {
    issue(req, res) {
      let nonce = nonceOf(req);
      if (!nonce) {
        nonce = randomBytes(32).toString('base64url');
        // No expiry: it ends with the browser, like the session cookie.
        res.cookie(ANONYMOUS_CSRF_COOKIE, nonce, { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/' });
      }
      return tokenOf(nonce);
    },
    matches(req, given) {
      const nonce = nonceOf(req);
      return nonce !== undefined && sameToken(tokenOf(nonce), given);
    },
    hasCookie: (req) => cookieValue(req, ANONYMOUS_CSRF_COOKIE) !== undefined,
  };
}

export function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
