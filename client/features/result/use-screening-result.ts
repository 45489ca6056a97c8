import { useEffect, useState } from 'react';
import { api, isApiError } from '../../lib/api';
import type { OwnerKey } from '../../lib/device-db';
import { readKeptScreening, refreshKeptScreening } from '../offline/offline-copies';
import type { ScreeningResult } from './result-model';

export type ResultLoad =
  | { kind: 'loading' }
  /** `offlineSavedAt`: the network is off and this is the copy kept on the device at that time. */
  | { kind: 'loaded'; result: ScreeningResult; offlineSavedAt?: string }
  | { kind: 'failed'; offline: boolean };

async function loadResult(id: number | undefined, ownerKey: OwnerKey | null): Promise<ResultLoad> {
  try {
    const result = await api.get<ScreeningResult>('/screening/result', { query: { id } });
    if (ownerKey) await refreshKeptScreening(ownerKey, result).catch(() => undefined);
    return { kind: 'loaded', result };
  } catch (error) {
    const offline = isApiError(error, 'NETWORK');
    const kept = offline && ownerKey ? await readKeptScreening(ownerKey, id).catch(() => null) : null;
    return kept ? { kind: 'loaded', result: kept.result, offlineSavedAt: kept.savedAt } : { kind: 'failed', offline };
  }
}

/**
 * `GET /api/screening/result`: the guest's screening (no id) or the patient's screening `id`.
 * With the network off, the copy of `ownerKey` kept on this device stands in for it.
 */
export function useScreeningResult(id: number | undefined, ownerKey: OwnerKey | null): ResultLoad {
  // Each answer remembers the screening it is for, so another id shows loading until its own.
  const [answer, setAnswer] = useState<{ id: number | undefined; load: ResultLoad } | null>(null);
  useEffect(() => {
    let current = true;
    void loadResult(id, ownerKey).then((load) => current && setAnswer({ id, load }));
    return () => {
      current = false;
    };
  }, [id, ownerKey]);
  return answer && answer.id === id ? answer.load : { kind: 'loading' };
}
