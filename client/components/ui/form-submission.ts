import { useEffect, useEffectEvent, useRef, useState, type FormEvent, type RefObject } from 'react';

/** A submit handler that runs one request at a time, with the busy state shown around it. */
export function useOneSubmission() {
  const submitting = useRef(false);
  const [isPending, setPending] = useState(false);

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

  return { isPending, submitWith };
}

/**
 * Focus on the first problem after a refused attempt, and only then: clearing a message while
 * typing must not move focus. `firstProblem` names the field (its `name` attribute inside
 * `areaRef`); with none, `fallback` gets the focus (e.g. a form-wide alert).
 */
export function useFocusAfterRefusal(
  areaRef: RefObject<HTMLElement | null>,
  firstProblem: () => string | undefined,
  fallback?: () => void,
) {
  const [refusals, setRefusals] = useState(0);

  const focusFirstProblem = useEffectEvent(() => {
    const name = firstProblem();
    const control = name && areaRef.current?.querySelector(`[name="${name}"]`);
    if (control instanceof HTMLElement) control.focus();
    else fallback?.();
  });
  useEffect(() => {
    if (refusals > 0) focusFirstProblem();
  }, [refusals]);

  return { refusals, noteRefusal: () => setRefusals((count) => count + 1) };
}
