import type { MessageKey, MessageValues } from '../../lib/intl';
import { isApiError, type ApiIssue } from '../../lib/api';

export type LoginVariant = 'result' | 'portal';

/** A translated message with its ICU values, decided outside React so it can be tested. */
export type Message = { key: MessageKey; values?: MessageValues };

export type LoginFailure = {
  /** Shown in the alert above the form; null when every problem sits under its field. */
  message: Message | null;
  /** Field name -> catalog key, from the server's 400 issues. */
  fieldErrors: Record<string, MessageKey>;
};

/** The generic login failure of spec section 5. */
const LOGIN_FAILED: Message = { key: 'errors.LOGIN_FAILED' };
export const COOKIES_BLOCKED: Message = { key: 'errors.COOKIES_BLOCKED' };

/** Codes with a message of their own; anything else is the generic login failure. */
const codeMessages: Record<string, MessageKey> = {
  INVALID_ACCESS_CODE: 'errors.INVALID_ACCESS_CODE',
  LOGIN_FAILED: 'errors.LOGIN_FAILED',
  COOKIES_BLOCKED: 'errors.COOKIES_BLOCKED',
  INVALID_CSRF_TOKEN: 'errors.INVALID_CSRF_TOKEN',
  NETWORK: 'errors.offline',
};

/** 403 answers of the patient login: spec 6 says the client shows the server's message. */
const portalRefusalMessages: Record<string, MessageKey> = {
  ACCOUNT_DISABLED: 'errors.ACCOUNT_DISABLED',
};

const COOKIES_BLOCKED_BODY_STATUS = 3;
const SECONDS_PER_MINUTE = 60;

/** "Try again in 45 seconds" below a minute, whole minutes (rounded up) from there. */
export function tooManyAttemptsMessage(retryAfterSeconds: number | null): Message {
  if (retryAfterSeconds === null || retryAfterSeconds <= 0) return { key: 'errors.TOO_MANY_ATTEMPTS' };
  if (retryAfterSeconds < SECONDS_PER_MINUTE) {
    return { key: 'login.error.tooManyAttemptsSeconds', values: { seconds: Math.ceil(retryAfterSeconds) } };
  }
  return {
    key: 'login.error.tooManyAttemptsMinutes',
    values: { minutes: Math.ceil(retryAfterSeconds / SECONDS_PER_MINUTE) },
  };
}

function fieldErrorsFrom(issues: ApiIssue[], fields: readonly string[], knownKeys: ReadonlySet<string>) {
  const fieldErrors: Record<string, MessageKey> = {};
  for (const issue of issues) {
    if (fields.includes(issue.path) && knownKeys.has(issue.message) && !(issue.path in fieldErrors)) {
      fieldErrors[issue.path] = issue.message as MessageKey;
    }
  }
  return fieldErrors;
}

/**
 * What the login screen says about a failed attempt (spec sections 5 and 8).
 * `knownKeys` are the catalog keys, so a server message the catalogs lack never shows as a raw key.
 */
export function describeLoginFailure(
  error: unknown,
  variant: LoginVariant,
  fields: readonly string[],
  knownKeys: ReadonlySet<string>,
): LoginFailure {
  const none: Record<string, MessageKey> = {};
  if (!isApiError(error)) return { message: LOGIN_FAILED, fieldErrors: none };

  if (error.bodyStatus === COOKIES_BLOCKED_BODY_STATUS) return { message: COOKIES_BLOCKED, fieldErrors: none };
  if (error.code === 'TOO_MANY_ATTEMPTS' || error.status === 429) {
    return { message: tooManyAttemptsMessage(error.retryAfterSeconds), fieldErrors: none };
  }
  if (error.code === 'VALIDATION') {
    const fieldErrors = fieldErrorsFrom(error.issues, fields, knownKeys);
    return { message: Object.keys(fieldErrors).length > 0 ? null : LOGIN_FAILED, fieldErrors };
  }
  const portalRefusal = portalRefusalMessages[error.code];
  if (variant === 'portal' && error.status === 403 && portalRefusal) {
    return { message: { key: portalRefusal }, fieldErrors: none };
  }
  const known = codeMessages[error.code];
  return { message: known ? { key: known } : LOGIN_FAILED, fieldErrors: none };
}

/** The browser refuses cookies: no session could survive the login, so say it up front. */
export function cookiesBlocked(nav: Pick<Navigator, 'cookieEnabled'> | undefined = globalThis.navigator): boolean {
  return nav?.cookieEnabled === false;
}
