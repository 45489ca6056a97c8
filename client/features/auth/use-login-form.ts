import { useCallback, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { LoginResponse } from '@common/types/session';
import { userHomePath } from '../../app/decide-navigation';
import { api } from '../../lib/api';
import { describeLoginFailure, type LoginVariant, type Message } from './login-errors';
import { LOGIN_VALIDATION_KEYS, type FieldErrors } from './login-validation';
import { setSignedIn } from './session-store';

export type Prepared<F extends string> =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; fieldErrors: FieldErrors<F> };

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
 * field or in the alert, focus on the first problem, and on success the user's start page.
 */
export function useLoginForm<F extends string>({ variant, fields, prepare }: Options<F>) {
  const [, navigate] = useLocation();
  const areaRef = useRef<HTMLDivElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const submitting = useRef(false);
  const [isPending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<F>>({});
  const [failure, setFailure] = useState<Message | null>(null);
  const [attempt, setAttempt] = useState(0);

  const focusFirstProblem = useEffectEvent(() => {
    const firstInvalid = fields.find((field) => fieldErrors[field]);
    const control = firstInvalid && areaRef.current?.querySelector(`[name="${firstInvalid}"]`);
    if (control instanceof HTMLElement) control.focus();
    else alertRef.current?.focus();
  });

  // After each failed attempt (and only then: clearing an error while typing must not move
  // focus), the first invalid field, else the alert, gets focus.
  useEffect(() => {
    if (attempt > 0) focusFirstProblem();
  }, [attempt]);

  const clearFieldError = useCallback((field: F) => {
    setFieldErrors((current) => {
      if (!current[field]) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  }, []);

  const fail = (errors: FieldErrors<F>, message: Message | null) => {
    setFieldErrors(errors);
    setFailure(message);
    setAttempt((count) => count + 1);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    setPending(true);
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
    } finally {
      submitting.current = false;
      setPending(false);
    }
  };

  return { areaRef, alertRef, isPending, fieldErrors, failure, attempt, clearFieldError, onSubmit };
}
