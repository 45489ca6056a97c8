import { useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { CONTACT_FIELDS, contactMessageSchema, type ContactField } from '@common/validation/contact';
import { pathFor } from '../../routes/paths';
import { useFocusAfterRefusal, useOneSubmission } from '../../components/ui/form-submission';
import { withoutFieldError } from '../../components/ui/use-field-form';
import { isApiError } from '../../lib/api';
import { useLanguage } from '../../lib/intl';
import { notify } from '../../stores/notification-store';
import { sendContactMessage } from './contact-api';
import { fieldErrorsFromIssues, validateContactForm, type ContactFieldErrors, type ContactFormValues } from './contact-validation';

const EMPTY: ContactFormValues = { firstName: '', lastName: '', email: '', phoneNumber: '', content: '', consent: false };

/** Fields that show their message as soon as they change: a checkbox has no typing to wait for. */
const CHECKED_ON_CHANGE: ReadonlySet<ContactField> = new Set(['consent']);

/**
 * The contact form's state: values, messages shown once a field was left (or on submit), the
 * server's messages under their fields, one request at a time, and the way to the success page.
 */
export function useContactForm() {
  const [, navigate] = useLocation();
  const language = useLanguage();
  const areaRef = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState<ContactFormValues>(EMPTY);
  const [shown, setShown] = useState<ReadonlySet<ContactField>>(new Set());
  const [serverErrors, setServerErrors] = useState<ContactFieldErrors>({});
  const { isPending, submitWith } = useOneSubmission();

  const clientErrors = useMemo(() => validateContactForm(values), [values]);
  const errorOf = (field: ContactField) => serverErrors[field] ?? (shown.has(field) ? clientErrors[field] : undefined);
  const { noteRefusal } = useFocusAfterRefusal(areaRef, () => CONTACT_FIELDS.find((name) => errorOf(name)));

  function change<F extends ContactField>(field: F, value: ContactFormValues[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => withoutFieldError(current, field));
    if (CHECKED_ON_CHANGE.has(field)) show([field]);
  }

  function show(fields: readonly ContactField[]) {
    setShown((current) => (fields.every((field) => current.has(field)) ? current : new Set([...current, ...fields])));
  }

  const onSubmit = submitWith(async () => {
    show(CONTACT_FIELDS);
    const parsed = contactMessageSchema.safeParse(values);
    if (!parsed.success) {
      noteRefusal();
      return;
    }
    try {
      await sendContactMessage({ ...parsed.data, language });
      notify({ kind: 'success', key: 'contact.success' });
      navigate(pathFor('contact_submitted'));
    } catch (error) {
      if (isApiError(error, 'TOO_MANY_ATTEMPTS')) {
        notify({ kind: 'error', key: 'contact.tooMany', values: { minutes: Math.ceil((error.retryAfterSeconds ?? 60) / 60) } });
      } else {
        notify({ kind: 'error', key: 'contact.failure' });
      }
      if (isApiError(error, 'VALIDATION')) {
        setServerErrors(fieldErrorsFromIssues(error.issues));
        noteRefusal();
      }
    }
  });

  return {
    areaRef,
    values,
    isPending,
    errorOf,
    change,
    onBlur: (field: ContactField) => show([field]),
    onSubmit,
  };
}
