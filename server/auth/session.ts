import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { Clock } from '../lib/clock';
import type { SessionPrincipal } from '../lib/principal';

/** What the server keeps in a session row; the browser only ever holds the signed id. */
declare module 'express-session' {
  interface SessionData {
    /** 'anonymous' only in rows stored before visitors got their token without a session. */
    kind: 'anonymous' | 'guest' | 'patient';
    /** Synchronizer token of the CSRF check (docs/api.md). */
    csrfToken: string;
    /** Epoch ms; the absolute lifetime counts from here. */
    createdAt: number;
    /** Epoch ms, refreshed at most once a minute; the idle timeout counts from here. */
    lastSeenAt: number;
    /** Patient sessions; top level so the `session_user_idx` index can find a user's sessions. */
    userId: number;
    requirePasswordChange: boolean;
    /** Result-portal (guest) sessions: the one screening they may see. */
    screeningId: number;
  }
}

/** Who is signed in on this request, or null for an anonymous session or none. */
export function principalOf(req: Request): SessionPrincipal | null {
  const session = req.session;
  if (session?.kind === 'guest' && typeof session.screeningId === 'number') {
    return { kind: 'guest', screeningId: session.screeningId };
  }
  if (session?.kind === 'patient' && typeof session.userId === 'number') {
    return { kind: 'patient', userId: session.userId, requirePasswordChange: session.requirePasswordChange === true };
  }
  return null;
}

function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Replaces the session with a new one under a new id (the old row is deleted), so an id planted
 * or seen before login is worthless after it. Used at sign-in. Returns the new token.
 */
export async function renewSession(req: Request, clock: Clock, principal: SessionPrincipal): Promise<string> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));
  const now = clock();
  const csrfToken = newCsrfToken();
  Object.assign(req.session, { kind: principal.kind, csrfToken, createdAt: now, lastSeenAt: now });
  if (principal.kind === 'guest') req.session.screeningId = principal.screeningId;
  if (principal.kind === 'patient') {
    req.session.userId = principal.userId;
    req.session.requirePasswordChange = principal.requirePasswordChange;
  }
  return csrfToken;
}

/** Deletes the session row, e.g. when the account behind it no longer exists or was disabled. */
export async function endSession(req: Request): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.destroy((error) => (error ? reject(error) : resolve())));
}
