import type { Request, RequestHandler } from 'express';
import { cookieValue } from '../lib/cookies';
import { AppError } from '../lib/errors';
import { sameToken, type AnonymousCsrf } from './anonymous-csrf';
import { SESSION_COOKIE } from './session-store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A GET that changes state: a cross-site image tag must not be able to sign anyone out. */
const CHECKED_GET_PATHS = new Set(['/api/auth/logout']);
const CSRF_HEADER = 'x-csrf-token';

/**
 * CSRF check (docs/api.md, CSRF). Mounted before every /api router, so a new state-changing
 * endpoint is protected without doing anything. A signed-in session is checked against the
 * synchronizer token stored with it; a visitor without one against her signed nonce cookie
 * (anonymous-csrf.ts).
 */
export function csrfProtection(anonymous: AnonymousCsrf): RequestHandler {
  return (req, _res, next) => {
    const checked = !SAFE_METHODS.has(req.method) || CHECKED_GET_PATHS.has(routedPath(req));
    if (!checked) return next();
    if (sentByAnotherSite(req)) throw new AppError(403, 'INVALID_CSRF_TOKEN');
    const given = req.get(CSRF_HEADER) ?? '';
    const stored = req.session?.csrfToken;
    if (stored) {
      if (!sameToken(stored, given)) throw new AppError(403, 'INVALID_CSRF_TOKEN');
      return next();
    }
    // No cookie at all although the client fetched a token first: the browser refuses cookies.
    if (cookieValue(req, SESSION_COOKIE) === undefined && !anonymous.hasCookie(req)) {
      throw new AppError(403, 'COOKIES_BLOCKED', { status: 3 });
    }
    if (!anonymous.matches(req, given)) throw new AppError(403, 'INVALID_CSRF_TOKEN');
    next();
  };
}

/**
 * The second line behind the token (OWASP): a browser says where a request comes from. A
 * state-changing call whose Fetch Metadata is not `same-origin` (a subdomain is another site too),
 * or, from a browser without it, whose Origin is not the host it was sent to, came from another
 * page than the portal's and is refused, token or not. A call naming neither (another program, an
 * old browser) rests on the token alone. The browser sets both headers; a page's script cannot.
 */
function sentByAnotherSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site) return site !== 'same-origin';
  const origin = req.get('origin');
  if (origin === undefined) return false;
  try {
    // `req.host` is the Host the browser sent (or X-Forwarded-Host behind a trusted proxy), with its port.
    return new URL(origin).host !== req.host;
  } catch {
    return true; // `null` (a sandboxed frame, a redirect across sites) or nothing a browser would send
  }
}

/** The path as Express routes it: case-insensitively and with or without a trailing slash. */
function routedPath(req: Request): string {
  return (req.originalUrl.split('?')[0] ?? '').toLowerCase().replace(/\/+$/, '');
}
