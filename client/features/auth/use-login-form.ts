import { useCallback, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { LoginResponse } from '@common/types/session';
import { userHomePath } from '../../routes/decide-navigation';
import { useFocusAfterRefusal, useOneSubmission } from '../../components/ui/form-submission';
import { withoutFieldError, type FieldErrors } from '../../components/ui/use-field-form';
import { api } from '../../lib/api';
import { describeLoginFailure, type LoginVariant, type Message } from './login-errors';
import { LOGIN_VALIDATION_KEYS } from './login-validation';
import { setSignedIn } from '../../stores/session-store';

export type Prepared<F extends string> = { ok: true; body: Record<string, unknown> } | { ok: false; fieldErrors: FieldErrors<F> };

const ENDPOINTS: Record<LoginVariant, string> = {
  result: '/auth/login',
  portal: '/auth/portal/login',
};

type Options<F extends string> = {
  variant: LoginVariant;
  /** In the order of the form, so focus goes to the first invalid one. */
  fields: readonly F[];
  /** Checks the typed values and builds the request body (hashing the password). */
  prepare: () => Promise<Prepared<F>>;
};

/**
 * Submitting a login form: client validation, one request at a time, the failure under its
 * field or in the alert, focus on the first problem (else the alert), and on success the user's
 * start page.
 */
export function useLoginForm<F extends string>({ variant, fields, prepare }: Options<F>) {
  const [, navigate] = useLocation();
  const areaRef = useRef<HTMLDivElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<F>>({});
  const [failure, setFailure] = useState<Message | null>(null);
  const { isPending, submitWith } = useOneSubmission();
  const { refusals: attempt, noteRefusal } = useFocusAfterRefusal(
    areaRef,
    () => fields.find((field) => fieldErrors[field]),
    () => alertRef.current?.focus(),
  );

  const clearFieldError = useCallback((field: F) => setFieldErrors((current) => withoutFieldError(current, field)), []);

  const fail = (errors: FieldErrors<F>, message: Message | null) => {
    setFieldErrors(errors);
    setFailure(message);
    noteRefusal();
  };

  const onSubmit = submitWith(async () => {
    try {
      const prepared = await prepare();
      if (!prepared.ok) {
        fail(prepared.fieldErrors, null);
        return;
      }
      const { user } = await api.post<LoginResponse>(ENDPOINTS[variant], prepared.body);
      setSignedIn(user);
      navigate(userHomePath(user), { replace: true });
    } catch (error) {
      const described = describeLoginFailure(error, variant, fields, LOGIN_VALIDATION_KEYS);
      fail(described.fieldErrors as FieldErrors<F>, described.message);
    }
  });

  return { areaRef, alertRef, isPending, fieldErrors, failure, attempt, clearFieldError, onSubmit };
}
