import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, notFound } from './errors';
import { isDatabaseUnavailable } from './database-unavailable';
import { errorForLog } from './logger';

/** When a client may ask again after the database was out of reach: a restart or fail-over takes seconds. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

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

/**
 * The framework's own refusals of a request: body-parser's (marked with `type`; any other
 * unreadable body, an unsupported charset or encoding, is a BAD_JSON with its status), and the rest
 * of its 4xx (a body whose Content-Encoding does not inflate, a path parameter that does not decode)
 * as BAD_REQUEST.
 */
function requestError(error: unknown): { status: number; code: 'BAD_JSON' | 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' } | undefined {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  const clientStatus = typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
  if (typeof type === 'string' && BODY_PARSER_ERRORS[type]) return BODY_PARSER_ERRORS[type];
  if (clientStatus === undefined) return undefined;
  return { status: clientStatus, code: typeof type === 'string' ? 'BAD_JSON' : 'BAD_REQUEST' };
}

/** A write refused because the disk (or the data folder's quota) is full. */
function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
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
  if (isDatabaseUnavailable(error)) {
    // The client shows "no connection" and may try again; the operator sees one line, not a stack per request.
    req.log.warn({ err: { type: (error as Error).name, code: (error as { code?: unknown }).code } }, 'database unavailable');
    res.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).status(503).json({ code: 'NO_CONNECTION', detail: 'no_connection' });
    return;
  }
  if (isStorageFull(error)) {
    // The operator must act (the log says so once per call); the patient learns it is not her files.
    req.log.error({ err: { code: (error as { code?: unknown }).code } }, 'storage full');
    res.status(507).json({ code: 'STORAGE_FULL' });
    return;
  }
  const refused = requestError(error);
  if (refused) {
    res.status(refused.status).json({ code: refused.code });
    return;
  }
  req.log.error({ err: errorForLog(error) }, 'unhandled error');
  res.status(500).json({ code: 'INTERNAL' });
};
