import {
  newPasswordFormSchema,
  resetRequestFormSchema,
  type NewPasswordForm,
  type ResetChannel,
  type ResetLanguage,
} from '@common/validation/password-reset';
import type { FieldErrors } from '../../components/ui/use-field-form';
import { api, isApiError } from '../../lib/api';
import type { MessageKey } from '../../lib/intl';
import { sha256Hex } from '../../lib/sha256';

/**
 * Token problems (spec section 8) and their messages: on the token page's warning screen, and as
 * an error notification when they come back on submit. The server never answers
 * EMAIL_NOT_FOUND (DECISIONS.md 5: the forgot-password answer must not reveal accounts); the
 * entry stays so an older server or a future flow that does send it is still shown translated.
 */
const TOKEN_ERROR_KEYS: Readonly<Record<string, MessageKey>> = {
  MISSING_TOKEN: 'errors.MISSING_TOKEN',
  INVALID_TOKEN: 'errors.INVALID_TOKEN',
  USED_TOKEN: 'errors.USED_TOKEN',
  EXPIRED_TOKEN: 'errors.EXPIRED_TOKEN',
  EMAIL_NOT_FOUND: 'errors.EMAIL_NOT_FOUND',
};

export function tokenErrorKey(error: unknown): MessageKey | null {
  return isApiError(error) ? (TOKEN_ERROR_KEYS[error.code] ?? null) : null;
}

/** Messages the two forms show under a field, written out for the catalog test. */
const FIELD_MESSAGES: ReadonlySet<string> = new Set<MessageKey>([
  'passwordReset.validation.emailRequired',
  'passwordReset.validation.emailInvalid',
  'passwordReset.validation.phoneRequired',
  'passwordReset.validation.phoneInvalid',
  'validation.password.required',
  'validation.password.confirmRequired',
  'validation.password.mismatch',
  'validation.password.notHashed',
  'validation.password.tooShort',
  'validation.password.common',
  'validation.password.sameAsLogin',
]);

function fieldErrorsFrom<F extends string>(
  issues: { path: PropertyKey | undefined; message: string }[],
  fields: readonly F[],
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const { path, message } of issues) {
    const field = fields.find((name) => name === path);
    if (field && !errors[field] && FIELD_MESSAGES.has(message)) errors[field] = message as MessageKey;
  }
  return errors;
}

const zodIssues = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((issue) => ({ path: issue.path[0], message: issue.message }));

export type Outcome<F extends string> =
  { kind: 'done' } | { kind: 'invalid'; fieldErrors: FieldErrors<F> } | { kind: 'failed'; error: unknown };

export type ResetField = 'email' | 'phoneNumber';
export type ResetRequestForm = { channel: ResetChannel; email: string; phoneNumber: string };

/** `POST /api/auth/password/reset` with only the chosen channel's field. */
export async function requestResetLink(form: ResetRequestForm, language: ResetLanguage): Promise<Outcome<ResetField>> {
  const fields = ['email', 'phoneNumber'] as const;
  const parsed = resetRequestFormSchema.safeParse(form);
  if (!parsed.success) return { kind: 'invalid', fieldErrors: fieldErrorsFrom(zodIssues(parsed.error.issues), fields) };
  const body = parsed.data.channel === 'email' ? { email: parsed.data.email } : { phoneNumber: parsed.data.phoneNumber };
  try {
    await api.post('/auth/password/reset', { ...body, language });
    return { kind: 'done' };
  } catch (error) {
    if (isApiError(error, 'VALIDATION')) {
      const fieldErrors = fieldErrorsFrom(error.issues, fields);
      if (Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
    }
    return { kind: 'failed', error };
  }
}

export type NewPasswordField = 'password' | 'confirm';

/** Judges the new password in plain text, then sends both hashed (spec section 5). */
export async function setPasswordWithToken(token: string, form: NewPasswordForm): Promise<Outcome<NewPasswordField>> {
  const fields = ['password', 'confirm'] as const;
  const parsed = newPasswordFormSchema.safeParse(form);
  if (!parsed.success) return { kind: 'invalid', fieldErrors: fieldErrorsFrom(zodIssues(parsed.error.issues), fields) };
  const [password, confirm] = await Promise.all([form.password, form.confirm].map(sha256Hex));
  try {
    await api.patch('/auth/password/token', { token, password, confirm });
    return { kind: 'done' };
  } catch (error) {
    if (isApiError(error, 'VALIDATION')) {
      const fieldErrors = fieldErrorsFrom(error.issues, fields);
      if (Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
    }
    return { kind: 'failed', error };
  }
}
