import type { Request, RequestHandler } from 'express';
import { AppError, notFound, unauthenticated } from '../lib/errors';
import type { PatientPrincipal, RequestContext, SessionPrincipal } from '../lib/principal';
import { principalOf } from './session';

/** The signed-in caller; only valid behind `requireSession` or `requirePatient`. */
export function callerOf(req: Request): SessionPrincipal {
  const principal = principalOf(req);
  if (!principal) throw unauthenticated();
  return principal;
}

export function patientOf(req: Request): PatientPrincipal {
  const principal = callerOf(req);
  if (principal.kind !== 'patient') throw notFound();
  return principal;
}

/** The signed-in caller and the request's address, as the services take them. */
export function contextOf(req: Request): RequestContext {
  return { caller: callerOf(req), ip: req.ip };
}

/** Any signed-in session, guest or patient. */
export const requireSession: RequestHandler = (req, _res, next) => {
  callerOf(req);
  next();
};

/**
 * Patient-portal endpoints (DECISIONS.md 4). A guest is told "not found" rather than "forbidden",
 * so a result-portal session learns nothing about what exists behind them.
 */
export const requirePatient: RequestHandler = (req, _res, next) => {
  patientOf(req);
  next();
};

/**
 * What a patient flagged to change the password may still use (spec section 6): her profile, the
 * CSRF token, logout, the password change itself and the other /api/auth calls (a login replaces
 * the session anyway).
 */
const OPEN_BEFORE_PASSWORD_CHANGE = [/^\/api\/auth\//, /^\/api\/user\/profile\/?$/];

/**
 * Mounted once in front of every /api router, so a new endpoint is closed to such a patient
 * without anyone remembering to close it.
 */
export const requirePasswordChanged: RequestHandler = (req, _res, next) => {
  const principal = principalOf(req);
  if (principal?.kind === 'patient' && principal.requirePasswordChange) {
    const path = req.originalUrl.split('?')[0] ?? '';
    if (!OPEN_BEFORE_PASSWORD_CHANGE.some((open) => open.test(path))) throw new AppError(403, 'PASSWORD_CHANGE_REQUIRED');
  }
  next();
};
