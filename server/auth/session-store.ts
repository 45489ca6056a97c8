import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import type { Db } from '../db';
import { errorForLog, type Logger } from '../lib/logger';

export const SESSION_COOKIE = 'portal.sid';

/** Rows live a little longer than the idle timeout, so pruning never ends a live session early. */
const STORE_TTL_MARGIN_SECONDS = 120;

export type SessionMiddleware = { middleware: RequestHandler; close(): Promise<void> };

/**
 * express-session over connect-pg-simple on the `session` table of migration 001 (never created
 * here). The cookie has no Max-Age, so it ends with the browser (DECISIONS.md 7); the server-side
 * timeouts are enforced in session-lifetime.ts.
 */
export function createSessionMiddleware(config: Config, db: Db, schema: string | undefined, logger: Logger): SessionMiddleware {
  const PgStore = connectPgSimple(session);
  const store = new PgStore({
    pgPromise: knexQueryAdapter(db),
    schemaName: schema,
    tableName: 'session',
    createTableIfMissing: false,
    ttl: Math.ceil(config.session.idleTimeoutMs / 1000) + STORE_TTL_MARGIN_SECONDS,
    // Expiry moves forward only when the session is saved: lastSeenAt is written at most once a
    // minute, instead of a touch on every request.
    disableTouch: true,
    // It reports background failures only (pruning expired rows): log them, never throw.
    errorLog: (message: unknown, error: unknown) => logger.error({ err: errorForLog(error) }, `session store: ${String(message)}`),
  });
  const middleware = session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/' },
  });
  // The typings say void; version 10 returns a promise (it also ends a pool it owns).
  return { middleware, close: () => store.close() as unknown as Promise<void> };
}

/**
 * connect-pg-simple speaks `$1` placeholders to a pg-promise-like `any()`; this runs its queries
 * on the app's knex pool, so sessions share the pool (and its search_path) instead of opening a
 * second one.
 */
function knexQueryAdapter(db: Db): { any(query: string, params?: unknown[]): Promise<unknown[]> } {
  return {
    async any(query, params = []) {
      const { sql, bindings } = toKnexBindings(query, params);
      const result = await db.raw(sql, bindings as never);
      return result.rows;
    },
  };
}

/** `$2 ... $1 ... $2` -> `? ... ? ... ?` with the values repeated in order of appearance. */
export function toKnexBindings(query: string, params: unknown[]): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = [];
  const sql = query.replace(/\$(\d+)/g, (_match, index: string) => {
    bindings.push(params[Number(index) - 1]);
    return '?';
  });
  return { sql, bindings };
}
