import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import type { MessageKey } from '../../lib/intl';

export type FieldErrors<F extends string> = Partial<Record<F, MessageKey>>;

/**
 * What a form of the portal keeps while it is filled in: the values, the message under each
 * field (cleared as that field is edited), focus on the first problem after a refused attempt
 * (never while typing), and one submission at a time. Wrap the fields in an element holding
 * `areaRef` so the focus can find them by name.
 */
export function useFieldForm<F extends string>(fields: readonly F[], empty: Record<F, string>) {
  const areaRef = useRef<HTMLDivElement>(null);
  const submitting = useRef(false);
  const [values, setValues] = useState(empty);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<F>>({});
  const [refusals, setRefusals] = useState(0);
  const [isPending, setPending] = useState(false);

  const focusFirstProblem = useEffectEvent(() => {
    const first = fields.find((field) => fieldErrors[field]);
    const control = first && areaRef.current?.querySelector(`[name="${first}"]`);
    if (control instanceof HTMLElement) control.focus();
  });
  useEffect(() => {
    if (refusals > 0) focusFirstProblem();
  }, [refusals]);

  const change = (field: F, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => {
      if (!current[field]) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  };

  /** A refused attempt: its messages go under their fields and focus moves to the first. */
  const refuse = (errors: FieldErrors<F>) => {
    setFieldErrors(errors);
    setRefusals((count) => count + 1);
  };

  const clear = () => {
    setValues(empty);
    setFieldErrors({});
  };

  /** A submit handler that runs `send` once at a time, with the busy state around it. */
  const submitWith = (send: () => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    setPending(true);
    try {
      await send();
    } finally {
      submitting.current = false;
      setPending(false);
    }
  };

  return { areaRef, values, fieldErrors, isPending, change, refuse, clear, submitWith };
}
