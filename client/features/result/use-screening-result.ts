import { useEffect, useState } from 'react';
import { api, isApiError } from '../../lib/api';
import type { ScreeningResult } from './result-model';

export type ResultLoad =
  | { kind: 'loading' }
  | { kind: 'loaded'; result: ScreeningResult }
  | { kind: 'failed'; offline: boolean };

/** `GET /api/screening/result`: the guest's screening (no id) or the patient's screening `id`. */
export function useScreeningResult(id: number | undefined): ResultLoad {
  // Each answer remembers the screening it is for, so another id shows loading until its own.
  const [answer, setAnswer] = useState<{ id: number | undefined; load: ResultLoad } | null>(null);
  useEffect(() => {
    let current = true;
    api
      .get<ScreeningResult>('/screening/result', { query: { id } })
      .then((result) => current && setAnswer({ id, load: { kind: 'loaded', result } }))
      .catch(
        (error: unknown) => current && setAnswer({ id, load: { kind: 'failed', offline: isApiError(error, 'NETWORK') } }),
      );
    return () => {
      current = false;
    };
  }, [id]);
  return answer && answer.id === id ? answer.load : { kind: 'loading' };
}
