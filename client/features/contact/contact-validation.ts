import { CONTACT_FIELDS, contactMessageSchema, type ContactField } from '@common/validation/contact';
import type { FieldErrors } from '../../components/ui/use-field-form';
import type { ApiIssue } from '../../lib/api';
import type { MessageKey } from '../../lib/intl';

export type ContactFormValues = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  content: string;
  consent: boolean;
};

export type ContactFieldErrors = FieldErrors<ContactField>;

/**
 * The messages of common/validation/contact.ts, which the server answers in 400 issues too,
 * written out so the catalog test finds them and only known keys reach `t()`.
 */
const CONTACT_VALIDATION_KEYS: ReadonlySet<string> = new Set<MessageKey>([
  'contact.validation.firstName.required',
  'contact.validation.firstName.tooLong',
  'contact.validation.lastName.required',
  'contact.validation.lastName.tooLong',
  'contact.validation.email.invalid',
  'contact.validation.phone.required',
  'contact.validation.phone.invalid',
  'contact.validation.content.required',
  'contact.validation.content.tooLong',
  'contact.validation.consent.required',
  // Any text field: U+0000 (pasted from a binary file), which the server cannot store.
  'validation.unstorableCharacter',
]);

function isContactField(path: string): path is ContactField {
  return (CONTACT_FIELDS as readonly string[]).includes(path);
}

function collect(issues: Iterable<{ path: string; message: string }>): ContactFieldErrors {
  const errors: ContactFieldErrors = {};
  for (const { path, message } of issues) {
    if (!isContactField(path) || errors[path] || !CONTACT_VALIDATION_KEYS.has(message)) continue;
    errors[path] = message as MessageKey;
  }
  return errors;
}

/** The first broken rule of each field, by the same schema the server applies. */
export function validateContactForm(values: ContactFormValues): ContactFieldErrors {
  const parsed = contactMessageSchema.safeParse(values);
  if (parsed.success) return {};
  return collect(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
}

/** The server's 400 issues that belong under a field of the form. */
export function fieldErrorsFromIssues(issues: ApiIssue[]): ContactFieldErrors {
  return collect(issues);
}
