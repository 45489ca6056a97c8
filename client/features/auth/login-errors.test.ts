import { createIntl } from '@formatjs/intl';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import en from '../../i18n/en.json';
import pl from '../../i18n/pl.json';
import { cookiesBlocked, describeLoginFailure, tooManyAttemptsMessage, type Message } from './login-errors';
import { LOGIN_VALIDATION_KEYS } from './login-validation';

const RESULT_FIELDS = ['accessCode', 'birthAt', 'portalTerms', 'policyTerms'];
const PORTAL_FIELDS = ['login', 'password', 'portalTerms', 'policyTerms'];

const english = createIntl({ locale: 'en', messages: en });
const polish = createIntl({ locale: 'pl', messages: pl });
const say = (message: Message | null, intl = english) =>
  message && intl.formatMessage({ id: message.key }, message.values as Record<string, number>);

const fail = (status: number, body: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
  new ApiError({ status, code: 'UNKNOWN', ...body });

describe('describeLoginFailure', () => {
  it('says "Incorrect access code" for a wrong code', () => {
    const failure = describeLoginFailure(fail(401, { code: 'INVALID_ACCESS_CODE' }), 'result', RESULT_FIELDS, LOGIN_VALIDATION_KEYS);
    expect(say(failure.message)).toBe('Incorrect access code');
    expect(say(failure.message, polish)).toBe('Nieprawidłowy kod dostępu');
  });

  it('gives the generic authorization error for a wrong password and for unknown failures', () => {
    const generic = 'Authorization error. Check the correctness of the data entered';
    expect(say(describeLoginFailure(fail(401, { code: 'LOGIN_FAILED' }), 'portal', PORTAL_FIELDS, LOGIN_VALIDATION_KEYS).message)).toBe(
      generic,
    );
    expect(say(describeLoginFailure(fail(500, { code: 'INTERNAL' }), 'portal', PORTAL_FIELDS, LOGIN_VALIDATION_KEYS).message)).toBe(
      generic,
    );
    expect(say(describeLoginFailure(new Error('boom'), 'result', RESULT_FIELDS, LOGIN_VALIDATION_KEYS).message)).toBe(generic);
    // an unknown 403 code cannot be translated, so it is the generic error too
    expect(say(describeLoginFailure(fail(403, { code: 'SOMETHING_NEW' }), 'portal', PORTAL_FIELDS, LOGIN_VALIDATION_KEYS).message)).toBe(
      generic,
    );
  });

  it("shows the server's 403 message on the patient login", () => {
    const failure = describeLoginFailure(fail(403, { code: 'ACCOUNT_DISABLED' }), 'portal', PORTAL_FIELDS, LOGIN_VALIDATION_KEYS);
    expect(failure.message?.key).toBe('errors.ACCOUNT_DISABLED');
  });

  it('shows the cookies-blocked message for a body status 3', () => {
    const failure = describeLoginFailure(
      fail(403, { code: 'COOKIES_BLOCKED', bodyStatus: 3 }),
      'result',
      RESULT_FIELDS,
      LOGIN_VALIDATION_KEYS,
    );
    expect(say(failure.message)).toMatch(/blocks cookies/);
    const statusOnly = describeLoginFailure(fail(403, { code: 'UNKNOWN', bodyStatus: 3 }), 'portal', PORTAL_FIELDS, LOGIN_VALIDATION_KEYS);
    expect(statusOnly.message?.key).toBe('errors.COOKIES_BLOCKED');
  });

  it('tells to reload the page after a stale CSRF token', () => {
    const failure = describeLoginFailure(fail(403, { code: 'INVALID_CSRF_TOKEN' }), 'result', RESULT_FIELDS, LOGIN_VALIDATION_KEYS);
    expect(say(failure.message)).toMatch(/Invalid CSRF token.*Reload the page/);
  });

  it('says there is no connection when the request never arrived', () => {
    const failure = describeLoginFailure(fail(0, { code: 'NETWORK' }), 'portal', PORTAL_FIELDS, LOGIN_VALIDATION_KEYS);
    expect(failure.message?.key).toBe('errors.offline');
  });

  it('puts the 400 issues under their fields and drops the ones it cannot show', () => {
    const failure = describeLoginFailure(
      fail(400, {
        code: 'VALIDATION',
        issues: [
          { path: 'birthAt', message: 'validation.birthAt.invalid' },
          { path: 'portalTerms', message: 'validation.consent.required' },
          { path: 'somethingElse', message: 'validation.consent.required' },
          { path: 'accessCode', message: 'not.a.catalog.key' },
        ],
      }),
      'result',
      RESULT_FIELDS,
      LOGIN_VALIDATION_KEYS,
    );
    expect(failure).toEqual({
      message: null,
      fieldErrors: { birthAt: 'validation.birthAt.invalid', portalTerms: 'validation.consent.required' },
    });
  });

  it('falls back to the generic error when no 400 issue fits a field', () => {
    const failure = describeLoginFailure(fail(400, { code: 'VALIDATION', issues: [] }), 'result', RESULT_FIELDS, LOGIN_VALIDATION_KEYS);
    expect(failure.message?.key).toBe('errors.LOGIN_FAILED');
  });
});

describe('tooManyAttemptsMessage', () => {
  it('names the wait in seconds below a minute, in both languages', () => {
    expect(say(tooManyAttemptsMessage(1))).toBe('Too many failed login attempts. Try again in 1 second.');
    expect(say(tooManyAttemptsMessage(45))).toBe('Too many failed login attempts. Try again in 45 seconds.');
    expect(say(tooManyAttemptsMessage(1), polish)).toBe('Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 1 sekundę.');
    expect(say(tooManyAttemptsMessage(3), polish)).toMatch(/za 3 sekundy\.$/);
    expect(say(tooManyAttemptsMessage(25), polish)).toMatch(/za 25 sekund\.$/);
  });

  it('names the wait in whole minutes, rounded up, from a minute on', () => {
    expect(say(tooManyAttemptsMessage(60))).toBe('Too many failed login attempts. Try again in 1 minute.');
    expect(say(tooManyAttemptsMessage(61))).toBe('Too many failed login attempts. Try again in 2 minutes.');
    expect(say(tooManyAttemptsMessage(60), polish)).toMatch(/za 1 minutę\.$/);
    expect(say(tooManyAttemptsMessage(240), polish)).toMatch(/za 4 minuty\.$/);
    expect(say(tooManyAttemptsMessage(900), polish)).toMatch(/za 15 minut\.$/);
  });

  it('says only "too many attempts" when the wait is unknown', () => {
    expect(tooManyAttemptsMessage(null).key).toBe('errors.TOO_MANY_ATTEMPTS');
  });

  it('is what a 429 answer shows', () => {
    const failure = describeLoginFailure(
      fail(429, { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 120 }),
      'result',
      RESULT_FIELDS,
      LOGIN_VALIDATION_KEYS,
    );
    expect(say(failure.message)).toBe('Too many failed login attempts. Try again in 2 minutes.');
  });
});

describe('cookiesBlocked', () => {
  it('follows navigator.cookieEnabled', () => {
    expect(cookiesBlocked({ cookieEnabled: false })).toBe(true);
    expect(cookiesBlocked({ cookieEnabled: true })).toBe(false);
    expect(cookiesBlocked(undefined)).toBe(false);
  });
});

describe('login messages', () => {
  it('exist in both catalogs with the texts of the spec', () => {
    const expected: Record<string, string> = {
      'validation.accessCode.required': 'Access code not specified',
      'validation.accessCode.invalid': 'Incorrect access code',
      'validation.birthAt.invalid': 'The date given is incorrect',
      'validation.consent.required': 'No consent indicated',
      'validation.login.required': 'Login not provided',
    };
    for (const [key, text] of Object.entries(expected)) expect(en[key as keyof typeof en]).toBe(text);
    for (const key of LOGIN_VALIDATION_KEYS) {
      expect(pl[key as keyof typeof pl], key).toBeTruthy();
      expect(en[key as keyof typeof en], key).toBeTruthy();
    }
  });
});
