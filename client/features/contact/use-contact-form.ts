import { useEffect, useEffectEvent, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { CONTACT_FIELDS, contactMessageSchema, type ContactField } from '@common/validation/contact';
import { pathFor } from '../../app/routes';
import { isApiError } from '../../lib/api';
import { useLanguage } from '../../lib/intl';
import { notify } from '../notifications/notification-store';
import { sendContactMessage } from './contact-api';
import {
  fieldErrorsFromIssues,
  validateContactForm,
  type ContactFieldErrors,
  type ContactFormValues,
} from './contact-validation';

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
  const submitting = useRef(false);
  const [values, setValues] = useState<ContactFormValues>(EMPTY);
  const [shown, setShown] = useState<ReadonlySet<ContactField>>(new Set());
  const [serverErrors, setServerErrors] = useState<ContactFieldErrors>({});
  const [isPending, setPending] = useState(false);
  const [failedAttempts, setFailedAttempts] = useState(0);

  const clientErrors = useMemo(() => validateContactForm(values), [values]);
  const errorOf = (field: ContactField) => serverErrors[field] ?? (shown.has(field) ? clientErrors[field] : undefined);

  const focusFirstProblem = useEffectEvent(() => {
    const field = CONTACT_FIELDS.find((name) => errorOf(name));
    const control = field && areaRef.current?.querySelector(`[name="${field}"]`);
    if (control instanceof HTMLElement) control.focus();
  });

  // After a refused submit only: clearing a message while typing must not move focus.
  useEffect(() => {
    if (failedAttempts > 0) focusFirstProblem();
  }, [failedAttempts]);

  function change<F extends ContactField>(field: F, value: ContactFormValues[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => {
      if (!current[field]) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
    if (CHECKED_ON_CHANGE.has(field)) show([field]);
  }

  function show(fields: readonly ContactField[]) {
    setShown((current) => (fields.every((field) => current.has(field)) ? current : new Set([...current, ...fields])));
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current) return;
    show(CONTACT_FIELDS);
    const parsed = contactMessageSchema.safeParse(values);
    if (!parsed.success) {
      setFailedAttempts((count) => count + 1);
      return;
    }
    submitting.current = true;
    setPending(true);
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
        setFailedAttempts((count) => count + 1);
      }
    } finally {
      submitting.current = false;
      setPending(false);
    }
  };

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
