import type { LoginResponse } from '@common/types/session';
import { passwordChangeFormSchema, type PasswordChangeForm } from '@common/validation/password';
import type { FieldErrors } from '../../components/ui/use-field-form';
import { api, isApiError } from '../../lib/api';
import type { MessageKey } from '../../lib/intl';
import { sha256Hex } from '../../lib/sha256';

export const PASSWORD_FIELDS = ['oldPassword', 'newPassword', 'confirm'] as const;
export type PasswordField = (typeof PASSWORD_FIELDS)[number];
type PasswordFieldErrors = FieldErrors<PasswordField>;

/**
 * Every message the change form can show under a field, written out for the catalog test. They
 * are the messages of common/validation/password.ts (the server answers the same in 400 issues)
 * plus the answer to a wrong old password.
 */
const FIELD_MESSAGES: ReadonlySet<string> = new Set<MessageKey>([
  'validation.password.required',
  'validation.password.oldRequired',
  'validation.password.confirmRequired',
  'validation.password.notHashed',
  'validation.password.mismatch',
  'validation.password.tooShort',
  'validation.password.common',
  'validation.password.sameAsLogin',
  'validation.password.sameAsOld',
  'profile.password.incorrect',
  'profile.password.tooManyAttempts',
]);

export type PasswordChangeOutcome =
  | { kind: 'changed'; response: LoginResponse }
  /** Problems the user fixes in the form, under their fields. */
  | { kind: 'invalid'; fieldErrors: PasswordFieldErrors }
  /** Anything else: shown as the "error occurred" notification. */
  | { kind: 'failed'; error: unknown };

function fieldErrorsFrom(issues: { path: PropertyKey | undefined; message: string }[]): PasswordFieldErrors {
  const fieldErrors: PasswordFieldErrors = {};
  for (const { path, message } of issues) {
    const field = PASSWORD_FIELDS.find((name) => name === path);
    if (field && !fieldErrors[field] && FIELD_MESSAGES.has(message)) fieldErrors[field] = message as MessageKey;
  }
  return fieldErrors;
}

/**
 * Spec sections 5 and 8: the new password is judged here, in plain text, before hashing (the
 * server only ever sees SHA-256 hex); then all three go hashed to `PATCH /api/auth/password`.
 * 403 means a wrong old password, shown under that field.
 */
export async function changePassword(form: PasswordChangeForm, login: string | undefined): Promise<PasswordChangeOutcome> {
  const parsed = passwordChangeFormSchema({ login }).safeParse(form);
  if (!parsed.success) {
    return {
      kind: 'invalid',
      fieldErrors: fieldErrorsFrom(parsed.error.issues.map((issue) => ({ path: issue.path[0], message: issue.message }))),
    };
  }
  const [oldPassword, newPassword, confirm] = await Promise.all([form.oldPassword, form.newPassword, form.confirm].map(sha256Hex));
  try {
    const response = await api.patch<LoginResponse>('/auth/password', { oldPassword, newPassword, confirm });
    return { kind: 'changed', response };
  } catch (error) {
    if (isApiError(error) && error.status === 403 && error.code === 'INVALID_PASSWORD') {
      return { kind: 'invalid', fieldErrors: { oldPassword: 'profile.password.incorrect' } };
    }
    if (isApiError(error, 'TOO_MANY_ATTEMPTS')) {
      return { kind: 'invalid', fieldErrors: { oldPassword: 'profile.password.tooManyAttempts' } };
    }
    if (isApiError(error, 'VALIDATION')) {
      const fieldErrors = fieldErrorsFrom(error.issues);
      if (Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
    }
    return { kind: 'failed', error };
  }
}
