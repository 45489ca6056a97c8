import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp, startTime } from 'pino-http';
import type { Config } from '../config';

export type { Logger };

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino({ level: config.logLevel, base: undefined }, destination);
}

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** A request at least this slow is worth an operator's look even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Request log lines carry method, route, status and duration only. Bodies, query strings, cookies
 * and headers never reach the log: they hold access codes, password hashes, reset tokens and
 * personal data.
 *
 * Volume: at the default level (`info`) only what needs an operator is written: a failed request
 * (5xx) as an error and a slow one as a warning. Every other request is a `debug` line: one line
 * per request came to about 42 MB in a five-run load test, and a loop of anonymous calls would
 * fill the disk with them. `LOG_LEVEL=debug` brings them all back, e.g. while tracing a problem.
 */
export function requestLogger(logger: Logger, { slowRequestMs = SLOW_REQUEST_MS } = {}) {
  const line = (req: IncomingMessage, res: ServerResponse, responseTime: number) => ({
    method: req.method,
    path: routeOf(req as Request, res as Response),
    status: res.statusCode,
    durationMs: responseTime,
  });
  return pinoHttp({
    logger,
    genReqId: () => randomUUID(),
    // Probes call every few seconds; a line each would bury the requests that matter.
    autoLogging: { ignore: (req) => PROBE_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: (_req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      return elapsedMs(res) >= slowRequestMs ? 'warn' : 'debug';
    },
    customSuccessObject: (req, res, val: { responseTime: number }) => line(req, res, val.responseTime),
    customErrorObject: (req, res, _err, val: { responseTime: number }) => line(req, res, val.responseTime),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
  });
}

/** pino-http stamps the start of each request on the response; the level is chosen before it reports the time. */
function elapsedMs(res: ServerResponse): number {
  return Date.now() - res[startTime];
}

/** Lets a handler name what it served when no route pattern says it (the SPA fallback). */
export function setLoggedPath(res: Response, path: string): void {
  res.locals.loggedPath = path;
}

/**
 * The route pattern (`/api/screening`, later `/api/order/:id/status`), never the concrete URL:
 * client paths such as `/change-password/<token>` carry secrets in the path itself.
 */
export function routeOf(req: Request, res: Response): string {
  if (typeof res.locals?.loggedPath === 'string') return res.locals.loggedPath;
  const routePath: unknown = req.route?.path;
  if (typeof routePath === 'string') return routePath === '/' ? req.baseUrl || '/' : `${req.baseUrl}${routePath}`;
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? '';
  return path.startsWith('/api/') ? '/api/(unmatched)' : '(unmatched)';
}

/**
 * Unexpected errors keep their stack for the operator but lose what a driver copies from the
 * data: PostgreSQL's `detail` repeats the offending values, `parameters` the bound ones.
 */
export function errorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const { code, routine, constraint, table } = error as Error & Record<string, unknown>;
  return { type: error.name, message: error.message, stack: error.stack, code, routine, constraint, table };
}
