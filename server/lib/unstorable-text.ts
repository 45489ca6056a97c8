import type { RequestHandler } from 'express';
import { UNSTORABLE_CHARACTER_MESSAGE } from '../../common/validation/unstorable-text';
import { AppError } from './errors';

/**
 * PostgreSQL's text cannot hold U+0000: a value with it fails the whole statement, so a form that
 * carries one (pasted from a binary file, sent by a script) would lose everything it held with a
 * 500. Refused before any handler runs instead: a body field as a VALIDATION issue on that field,
 * a URL (path or query) as BAD_REQUEST.
 */
export const refuseUnstorableText: RequestHandler = (req, _res, next) => {
  if (/%00/i.test(req.originalUrl)) {
    next(new AppError(400, 'BAD_REQUEST'));
    return;
  }
  const paths = pathsWithNul(req.body, []);
  if (paths.length > 0) {
    next(new AppError(400, 'VALIDATION', { issues: paths.map((path) => ({ path, message: UNSTORABLE_CHARACTER_MESSAGE })) }));
    return;
  }
  next();
};

/** Field paths as the VALIDATION issues name them (`a.b.0`), of every string (or key) with U+0000. */
function pathsWithNul(value: unknown, at: (string | number)[]): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [at.join('.')] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => pathsWithNul(item, [...at, index]));
  // Plain objects only, as JSON bodies are: a raw body's Buffer is bytes, not text.
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).flatMap(([key, item]) =>
      key.includes('\u0000') ? [[...at, key].join('.')] : pathsWithNul(item, [...at, key]),
    );
  }
  return [];
}
