import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config';

export type { Logger };

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino({ level: config.logLevel, base: undefined }, destination);
}

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** A request at least this slow is worth an operator's look even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's logger: its lines carry the request's id (`reqId`), made when it first logs. */
    log: Logger;
  }
}

const requestStart = Symbol('request start');
type Timed = ServerResponse & { [requestStart]?: number };

/**
 * Request log lines carry method, route, status and duration only. Bodies, query strings, cookies
 * and headers never reach the log: they hold access codes, password hashes, reset tokens and
 * personal data.
 *
 * Volume: at the default level (`info`) only what needs an operator is written: a failed request
 * (5xx) as an error and a slow one as a warning. Every other request is a `debug` line: one line
 * per request came to about 42 MB in a five-run load test, and a loop of anonymous calls would
 * fill the disk with them. `LOG_LEVEL=debug` brings them all back, e.g. while tracing a problem.
 *
 * Every request passes here, so it does the least it can: the request's child logger is made only
 * when something logs, and a line nobody will write is never built.
 */
export function requestLogger(logger: Logger, { slowRequestMs = SLOW_REQUEST_MS } = {}): RequestHandler {
  // One listener for every response (`this` is the response), not a closure per request; `on`,
  // not `once`: a response closes once, and `once` would wrap the listener for every request.
  function logAnswered(this: Timed) {
    const res = this as Timed & Response;
    const durationMs = Date.now() - (res[requestStart] ?? 0);
    const failed = res.statusCode >= 500;
    const level = failed ? 'error' : durationMs >= slowRequestMs ? 'warn' : 'debug';
    if (!logger.isLevelEnabled(level)) return;
    const { req } = res;
    const line = { method: req.method, path: routeOf(req, res), status: res.statusCode, durationMs };
    req.log[level](line, failed ? 'request failed' : 'request');
  }
  return (req, res, next) => {
    let log: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, get: () => (log ??= logger.child({ reqId: randomUUID() })) });
    // Probes call every few seconds; a line each would bury the requests that matter.
    if (!PROBE_PATHS.has(req.path)) {
      (res as Timed)[requestStart] = Date.now();
      res.on('close', logAnswered);
    }
    next();
  };
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
