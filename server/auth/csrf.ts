import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../lib/errors';
import { SESSION_COOKIE } from './session-store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A GET that changes state: a cross-site image tag must not be able to sign anyone out. */
const CHECKED_GET_PATHS = new Set(['/api/auth/logout']);
const CSRF_HEADER = 'x-csrf-token';

/**
 * Synchronizer-token check (docs/api.md, CSRF). Mounted before every /api router, so a new
 * state-changing endpoint is protected without doing anything.
 */
export const csrfProtection: RequestHandler = (req, _res, next) => {
  const checked = !SAFE_METHODS.has(req.method) || CHECKED_GET_PATHS.has(routedPath(req));
  if (!checked) return next();
  // No cookie at all although the client fetched a token first: the browser refuses cookies.
  if (!hasSessionCookie(req)) throw new AppError(403, 'COOKIES_BLOCKED', { status: 3 });
  const expected = req.session?.csrfToken;
  const given = req.get(CSRF_HEADER);
  if (!expected || !given || !sameToken(expected, given)) throw new AppError(403, 'INVALID_CSRF_TOKEN');
  next();
};

/** The path as Express routes it: case-insensitively and with or without a trailing slash. */
function routedPath(req: Request): string {
  return (req.originalUrl.split('?')[0] ?? '').toLowerCase().replace(/\/+$/, '');
}

function hasSessionCookie(req: Request): boolean {
  const header = req.headers.cookie ?? '';
  return header.split(';').some((pair) => pair.trim().startsWith(`${SESSION_COOKIE}=`));
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
