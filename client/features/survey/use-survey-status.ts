import { useEffect, useState } from 'react';
import type { SurveyStatus } from '@common/validation/survey';
import { api } from '../../lib/api';

export type SurveyLoad = { kind: 'loading' } | { kind: 'new' } | { kind: 'sent'; submittedAt: string } | { kind: 'failed' };

/** Spec section 4: 204 without a body means a new survey; data means it was sent (view mode). */
export function useSurveyStatus(id: number | undefined): [SurveyLoad, (load: SurveyLoad) => void] {
  const [load, setLoad] = useState<SurveyLoad>({ kind: 'loading' });
  useEffect(() => {
    let current = true;
    api
      .get<SurveyStatus | undefined>('/screening/survey', { query: { id } })
      .then((status) => {
        if (current) setLoad(status?.submittedAt ? { kind: 'sent', submittedAt: status.submittedAt } : { kind: 'new' });
      })
      .catch(() => current && setLoad({ kind: 'failed' }));
    return () => {
      current = false;
    };
  }, [id]);
  return [load, setLoad];
}
