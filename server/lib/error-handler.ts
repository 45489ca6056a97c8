import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, notFound } from './errors';
import { errorForLog } from './logger';

/** Unknown `/api` paths answer JSON like every other API failure, not the SPA's HTML. */
export const apiNotFound: RequestHandler = (_req, _res, next) => next(notFound());

/** body-parser marks its failures with `type`; these are the client's mistakes, not ours. */
const BODY_PARSER_ERRORS: Record<string, { status: number; code: 'BAD_JSON' | 'PAYLOAD_TOO_LARGE' }> = {
  'entity.parse.failed': { status: 400, code: 'BAD_JSON' },
  'entity.too.large': { status: 413, code: 'PAYLOAD_TOO_LARGE' },
};

/**
 * One message per field, the first rule it broke: an empty access code is "not specified", not
 * also "incorrect".
 */
function firstIssuePerField(error: ZodError): { path: string; message: string }[] {
  const byPath = new Map<string, string>();
  for (const issue of error.issues) {
    const path = issue.path.join('.');
    if (!byPath.has(path)) byPath.set(path, issue.message);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}

/** Any other unreadable body (unsupported charset or encoding ...) is a BAD_JSON with its status. */
function readBodyError(error: unknown): { status: number; code: 'BAD_JSON' | 'PAYLOAD_TOO_LARGE' } | undefined {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (typeof type !== 'string') return undefined;
  const known = BODY_PARSER_ERRORS[type];
  if (known) return known;
  return typeof status === 'number' && status >= 400 && status < 500 ? { status, code: 'BAD_JSON' } : undefined;
}

/**
 * The one place errors become answers: `{ code, ...extra }`, never a stack or a driver message.
 */
export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof AppError) {
    res
      .set(error.headers)
      .status(error.status)
      .json({ code: error.code, ...error.extra });
    return;
  }
  if (error instanceof ZodError) {
    res.status(400).json({ code: 'VALIDATION', issues: firstIssuePerField(error) });
    return;
  }
  const bodyError = readBodyError(error);
  if (bodyError) {
    res.status(bodyError.status).json({ code: bodyError.code });
    return;
  }
  req.log.error({ err: errorForLog(error) }, 'unhandled error');
  res.status(500).json({ code: 'INTERNAL' });
};
