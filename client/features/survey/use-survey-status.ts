import { useCallback, useEffect, useState } from 'react';
import type { SurveyAnswers, SurveyStatus } from '@common/validation/survey';
import { api } from '../../lib/api';

export type SurveyLoad =
  | { kind: 'loading' }
  | { kind: 'new' }
  /** `answers` null: sent while answers were stored anonymously, so they cannot be shown. */
  | { kind: 'sent'; submittedAt: string; answers: SurveyAnswers | null }
  | { kind: 'failed' };

/**
 * Spec section 4: 204 without a body means a new survey; data means it was sent (view mode, with
 * her answers: DECISIONS.md 16). `reload` asks again, e.g. when a send finds it sent already.
 */
export function useSurveyStatus(id: number | undefined): { load: SurveyLoad; reload: () => void } {
  const [load, setLoad] = useState<SurveyLoad>({ kind: 'loading' });
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let current = true;
    api
      .get<SurveyStatus | undefined>('/screening/survey', { query: { id } })
      .then((status) => {
        if (!current) return;
        setLoad(status?.submittedAt ? { kind: 'sent', submittedAt: status.submittedAt, answers: status.answers ?? null } : { kind: 'new' });
      })
      .catch(() => current && setLoad({ kind: 'failed' }));
    return () => {
      current = false;
    };
  }, [id, asked]);
  const reload = useCallback(() => setAsked((count) => count + 1), []);
  return { load, reload };
}
