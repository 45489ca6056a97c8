import type { Request, RequestHandler } from 'express';
import { AppError, notFound, unauthenticated } from '../lib/errors';
import { principalOf, type Principal } from './session';

/** The signed-in caller; only valid behind `requireSession` or `requirePatient`. */
export function callerOf(req: Request): Principal {
  const principal = principalOf(req);
  if (!principal) throw unauthenticated();
  return principal;
}

export function patientOf(req: Request): Extract<Principal, { kind: 'patient' }> {
  const principal = callerOf(req);
  if (principal.kind !== 'patient') throw notFound();
  return principal;
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
 * Spec section 6: a patient flagged to change the password can use nothing but the profile, the
 * password change, logout and the CSRF token until they do. Mount on every other router.
 */
export const requirePasswordChanged: RequestHandler = (req, _res, next) => {
  const principal = principalOf(req);
  if (principal?.kind === 'patient' && principal.requirePasswordChange) {
    throw new AppError(403, 'PASSWORD_CHANGE_REQUIRED');
  }
  next();
};
