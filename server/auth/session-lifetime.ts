import type { RequestHandler } from 'express';
import type { Config } from '../config';
import type { Clock } from '../lib/clock';

/** Writing lastSeenAt on every request would turn each read into a session write. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * DECISIONS.md 7: a session ends after 15 minutes idle and 8 hours in all, counted on the server
 * because the cookie itself has no expiry. An ended session is replaced by a fresh, empty one,
 * so the request goes on as anonymous (profile answers 401, a form post fails its CSRF check).
 */
export function enforceSessionLifetime(limits: Config['session'], clock: Clock): RequestHandler {
  return (req, _res, next) => {
    const session = req.session;
    if (!session || session.createdAt === undefined) return next();
    const now = clock();
    const lastSeenAt = session.lastSeenAt ?? 0;
    const expired = now - lastSeenAt > limits.idleTimeoutMs || now - session.createdAt > limits.absoluteTimeoutMs;
    if (expired) {
      session.regenerate((error) => next(error));
      return;
    }
    if (now - lastSeenAt >= LAST_SEEN_RESOLUTION_MS) session.lastSeenAt = now;
    next();
  };
}
