import connectPgSimple from 'connect-pg-simple';
import session, { type SessionData } from 'express-session';
import type { Request, RequestHandler } from 'express';
import type { SessionUser } from '../../common/types/session';
import type { Config } from '../config';
import { rawQuery, type Db } from '../db';
import { errorForLog, type Logger } from '../lib/logger';
import { PATIENT_COLUMNS, toSessionUser, type PatientRow } from './session-user-repo';

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
  const store = new (sessionWithPatientStore(PgStore, db, schema))({
    pgPromise: poolQueryAdapter(db),
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

/** What the session read found of the patient's account: her active account, or null (gone or disabled). */
const patientsReadWithSession = new WeakMap<object, SessionUser | null>();
const patientOfRow = Symbol('patient read with the session row');
type ReadSession = SessionData & { [patientOfRow]?: SessionUser | null };

/**
 * The signed-in patient's account as it was read together with this request's session row, or
 * undefined when it was not (a guest, no session, or a session replaced during the request). The
 * client asks who is signed in on every page load; this answers without a second query.
 */
export function patientReadWithSession(req: Request): SessionUser | null | undefined {
  return req.session ? patientsReadWithSession.get(req.session) : undefined;
}

/**
 * connect-pg-simple's store, whose read of a patient's session also reads her account (active
 * only, as session-user-repo.ts does) in the same query.
 */
function sessionWithPatientStore(PgStore: ReturnType<typeof connectPgSimple>, db: Db, schema: string | undefined) {
  // The table named as connect-pg-simple names it; the patient's tables are found on the search_path.
  const sessionTable = schema ? `"${schema}"."session"` : '"session"';
  const sessionWithPatient = `SELECT s.sess, ${PATIENT_COLUMNS}
      FROM ${sessionTable} s
      LEFT JOIN users u ON s.sess ->> 'kind' = 'patient' AND u.id = (s.sess ->> 'userId')::int AND u.disabled_at IS NULL
      LEFT JOIN personal_data p ON p.id = u.personal_data_id
     WHERE s.sid = $1 AND s.expire >= to_timestamp($2)`;
  return class SessionWithPatientStore extends PgStore {
    // connect-pg-simple's own read also started its timer that prunes expired rows; its writes
    // (every sign-in, lastSeenAt once a minute) and deletes still do.
    override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
      rawQuery<PatientRow & { sess: ReadSession }>(db, sessionWithPatient, [sid, Math.ceil(Date.now() / 1000)]).then(([row]) => {
        if (!row) return callback(null, null);
        const { sess } = row;
        if (sess.kind === 'patient') sess[patientOfRow] = row.id === null ? null : toSessionUser(row);
        callback(null, sess);
      }, callback);
    }

    /** express-session makes the request's Session from what `get` gave; the account goes with it. */
    override createSession(req: Request, sess: ReadSession) {
      const created = super.createSession(req, sess);
      const patient = sess[patientOfRow];
      if (patient !== undefined) patientsReadWithSession.set(created, patient);
      return created;
    }
  };
}

/**
 * connect-pg-simple speaks `$1` placeholders to a pg-promise-like `any()`; this runs its queries
 * on the app's pool, so sessions share it (and its search_path) instead of opening a second one.
 */
function poolQueryAdapter(db: Db): { any(query: string, params?: unknown[]): Promise<unknown[]> } {
  return { any: (query, params = []) => rawQuery(db, query, params) };
}
