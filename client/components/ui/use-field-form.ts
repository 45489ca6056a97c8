import { useRef, useState } from 'react';
import type { MessageKey } from '../../lib/intl';
import { useFocusAfterRefusal, useOneSubmission } from './form-submission';

export type FieldErrors<F extends string> = Partial<Record<F, MessageKey>>;

/** The same errors without the message of `field`, or the same object when it had none. */
export function withoutFieldError<F extends string, E extends Partial<Record<F, unknown>>>(errors: E, field: F): E {
  if (!errors[field]) return errors;
  const next = { ...errors };
  delete next[field];
  return next;
}

/**
 * What a text form of the portal keeps while it is filled in: the values, the message under each
 * field (cleared as that field is edited), focus on the first problem after a refused attempt
 * (never while typing), and one submission at a time. Wrap the fields in an element holding
 * `areaRef` so the focus can find them by name.
 */
export function useFieldForm<F extends string>(fields: readonly F[], empty: Record<F, string>) {
  const areaRef = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState(empty);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<F>>({});
  const { isPending, submitWith } = useOneSubmission();
  const { noteRefusal } = useFocusAfterRefusal(areaRef, () => fields.find((field) => fieldErrors[field]));

  const change = (field: F, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => withoutFieldError(current, field));
  };

  /** A refused attempt: its messages go under their fields and focus moves to the first. */
  const refuse = (errors: FieldErrors<F>) => {
    setFieldErrors(errors);
    noteRefusal();
  };

  const clearErrors = () => setFieldErrors({});

  const clear = () => {
    setValues(empty);
    clearErrors();
  };

  return { areaRef, values, fieldErrors, isPending, change, refuse, clear, clearErrors, submitWith };
}
