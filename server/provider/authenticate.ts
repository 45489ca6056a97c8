import type { Request, RequestHandler, Response } from 'express';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import type { ProviderPrincipal, RequestContext } from '../lib/principal';
import { hashApiKey, looksLikeApiKey } from './keys/api-key-secret';
import { recordKeyCall } from './keys/api-keys-repo';
import type { ProviderScope } from './scopes';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The provider chain's proof of identity: `Authorization: Bearer <key>`. Cookies are never read
 * here, so a patient's session cannot act as the provider; and the patient chain never reads
 * this header, so a key cannot act as a patient. One statement checks the key, counts the call
 * against its per-minute limit and stamps its last use.
 */
export function authenticateApiKey(deps: { db: Db; clock: Clock }): RequestHandler {
  return async (req, res, next) => {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1];
    if (!token || !looksLikeApiKey(token)) throw keyError('API_KEY_INVALID');
    const call = await recordKeyCall(deps.db, hashApiKey(token), new Date(deps.clock()));
    if (call.kind === 'unknown') throw keyError('API_KEY_INVALID');
    if (call.kind === 'over-limit') {
      res.locals.refusedApiKeyId = call.id;
      throw new AppError(
        429,
        'RATE_LIMITED',
        { retryAfterSeconds: call.retryAfterSeconds },
        { 'Retry-After': String(call.retryAfterSeconds) },
      );
    }
    if (call.kind !== 'admitted') {
      res.locals.refusedApiKeyId = call.id;
      throw keyError(call.kind === 'revoked' ? 'API_KEY_REVOKED' : 'API_KEY_EXPIRED');
    }
    const principal: ProviderPrincipal = { kind: 'provider', apiKeyId: call.id, actor: `key:${call.id}`, scopes: call.scopes };
    res.locals.provider = principal;
    next();
  };
}

function keyError(code: 'API_KEY_INVALID' | 'API_KEY_REVOKED' | 'API_KEY_EXPIRED'): AppError {
  return new AppError(401, code, {}, { 'WWW-Authenticate': 'Bearer realm="provider-api"' });
}

export type ProviderContext = RequestContext<ProviderPrincipal>;

/** The authenticated caller of a provider call; only reachable behind `authenticateApiKey`. */
export function providerContextOf(req: Request, res: Response): ProviderContext {
  const caller = res.locals.provider as ProviderPrincipal | undefined;
  if (!caller) throw keyError('API_KEY_INVALID');
  return { caller, ip: req.ip };
}

export function requireScope(context: ProviderContext, scope: ProviderScope): void {
  if (!context.caller.scopes.includes(scope)) throw new AppError(403, 'API_KEY_SCOPE', { requiredScope: scope });
}

/** Middleware form of `requireScope`, for routers that are not endpoint definitions (DICOMweb). */
export function scopeGate(scope: ProviderScope): RequestHandler {
  return (req, res, next) => {
    requireScope(providerContextOf(req, res), scope);
    next();
  };
}
