import type { z } from 'zod';
import type { FieldErrors } from '../../components/ui/use-field-form';
import type { MessageKey } from '../../lib/intl';

/**
 * The validation messages the login forms can show, written out so the catalog test finds them.
 * They are the messages of common/validation/auth.ts, which the server answers in 400 issues too.
 */
export const LOGIN_VALIDATION_KEYS: ReadonlySet<string> = new Set<MessageKey>([
  'validation.accessCode.required',
  'validation.accessCode.invalid',
  'validation.birthAt.invalid',
  'validation.consent.required',
  'validation.login.required',
  'validation.password.required',
  'validation.password.notHashed',
]);

/** The first message of each field, for fields the form shows; schema messages are catalog keys. */
export function fieldErrorsFromZod<F extends string>(error: z.ZodError, fields: readonly F[]): FieldErrors<F> {
  const fieldErrors: FieldErrors<F> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || !fields.includes(field as F) || field in fieldErrors) continue;
    if (LOGIN_VALIDATION_KEYS.has(issue.message)) fieldErrors[field as F] = issue.message as MessageKey;
  }
  return fieldErrors;
}
