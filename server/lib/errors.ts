import type { UploadErrorCode } from '../../common/types/upload';

/**
 * Stable error codes of docs/api.md. The client translates each through `errors.<code>`, so a
 * new code needs catalog keys and a line in docs/api.md.
 */
export type ErrorCode =
  | 'VALIDATION'
  | 'BAD_JSON'
  | 'BAD_REQUEST'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNAUTHENTICATED'
  | 'INVALID_ACCESS_CODE'
  | 'LOGIN_FAILED'
  | 'ACCOUNT_DISABLED'
  | 'TOO_MANY_ATTEMPTS'
  | 'INVALID_CSRF_TOKEN'
  | 'COOKIES_BLOCKED'
  | 'NOT_FOUND'
  | 'PASSWORD_CHANGE_REQUIRED'
  | 'INVALID_PASSWORD'
  | 'MISSING_TOKEN'
  | 'INVALID_TOKEN'
  | 'USED_TOKEN'
  | 'EXPIRED_TOKEN'
  | 'SURVEY_ALREADY_SUBMITTED'
  | 'ISO_GENERATOR_BUSY'
  | 'NO_CONNECTION'
  | 'STORAGE_FULL'
  | 'ORDER_ALREADY_EXISTS'
  | 'SLOT_TAKEN'
  | 'ORDER_NOT_PAYABLE'
  | 'PRODUCT_UNAVAILABLE'
  | 'INVALID_SIGNATURE'
  | 'API_KEY_INVALID'
  | 'API_KEY_REVOKED'
  | 'API_KEY_EXPIRED'
  | 'API_KEY_SCOPE'
  | 'RATE_LIMITED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_A_PDF'
  | 'CONFLICT'
  | UploadErrorCode
  | 'INTERNAL';

/** An expected failure: the error handler answers it as `{ code, ...extra }` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export const notFound = (): AppError => new AppError(404, 'NOT_FOUND');
export const unauthenticated = (): AppError => new AppError(401, 'UNAUTHENTICATED');

export function tooManyAttempts(retryAfterSeconds: number): AppError {
  return new AppError(429, 'TOO_MANY_ATTEMPTS', { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
}
