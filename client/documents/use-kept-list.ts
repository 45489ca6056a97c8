import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, isApiError, type QueryValue } from '../lib/api';
import type { KeptListKind, OwnerKey } from '../lib/device-db';
import type { ApiGet } from '../lib/use-api-get';
import { useSession } from '../stores/session-store';
import { currentOwnerKey } from './device-owner';
import { useReportOfflineList } from './offline-lists';
import { isCopiesLocked, useAskPin } from './copies-lock';

export type KeptListGet<T> = ApiGet<T> & {
  /** The network is off and `data` is the list kept on this device at that time; null otherwise. */
  offlineSavedAt: string | null;
};

/** The device database's code, loaded once a list arrived: it never holds up the page's request. */
const offlineCopies = () => import('./offline-copies');

type Loaded<T> = {
  key: string;
  owner: OwnerKey | null;
  data: T | null;
  failed: boolean;
  offlineSavedAt: string | null;
  /** Offline, her list is kept but sealed: the page asks for her PIN. */
  locked?: boolean;
};

/** A query without any filter answers the whole list: that answer is the one kept. */
function asksWholeList(query: Record<string, QueryValue>): boolean {
  return Object.values(query).every((value) => value === undefined || value === null || value === '');
}

async function readKept<T>(owner: OwnerKey | null, kind: KeptListKind): Promise<{ list: T; savedAt: string } | null | 'locked'> {
  if (!owner) return null;
  return offlineCopies()
    .then(({ readKeptList }) => readKeptList<T>(owner, kind))
    .catch((error: unknown) => (isCopiesLocked(error) ? 'locked' : null));
}

/**
 * A GET of one of the patient's lists, as useApiGet, that also works offline: when she chose to
 * keep copies on this device, each whole list that arrives is kept for its owner (the signed-in
 * patient, or offline the one remembered on this device), sealed; with the network off the kept
 * list, once her PIN opened it, stands in for the server's answer, `offlineAnswer` narrowing it
 * to the query as the server would have. Only a missing network falls back to it: a refused or
 * failed request never shows a kept list. While the kept list is on screen, its page shows the
 * offline mark (OfflineListsMark).
 */
export function useKeptList<T, Q extends Record<string, QueryValue>>(
  kind: KeptListKind,
  path: string,
  query: Q,
  offlineAnswer: (kept: T, query: Q) => T,
): KeptListGet<T> {
  const { user } = useSession();
  const owner = currentOwnerKey(user);
  const key = JSON.stringify([owner, path, query]);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T>>({ key: '', owner: null, data: null, failed: false, offlineSavedAt: null });
  const requestKey = `${key}#${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    const [requestOwner, requestPath, requestQuery] = JSON.parse(key) as [OwnerKey | null, string, Q];
    const answered = `${key}#${attempt}`;
    // A failure keeps what was shown, but never another owner's list.
    const failed = (previous: Loaded<T>): Loaded<T> => ({
      key: answered,
      owner: requestOwner,
      data: previous.owner === requestOwner ? previous.data : null,
      failed: true,
      offlineSavedAt: null,
    });
    const showKept = async () => {
      const kept = await readKept<T>(requestOwner, kind);
      if (controller.signal.aborted) return;
      if (kept === 'locked')
        setLoaded({ key: answered, owner: requestOwner, data: null, failed: false, offlineSavedAt: null, locked: true });
      else if (!kept) setLoaded(failed);
      else
        setLoaded({
          key: answered,
          owner: requestOwner,
          data: offlineAnswer(kept.list, requestQuery),
          failed: false,
          offlineSavedAt: kept.savedAt,
        });
    };

    // A browser that knows it has no network goes straight to the device's copy.
    if (navigator.onLine === false) void showKept();
    else
      api.get<T>(requestPath, { query: requestQuery, signal: controller.signal }).then(
        (data) => {
          setLoaded({ key: answered, owner: requestOwner, data, failed: false, offlineSavedAt: null });
          if (requestOwner && asksWholeList(requestQuery)) {
            // Kept only when she chose to (keepList does nothing otherwise). A full or refused
            // device storage must not stop the patient from seeing her list.
            void offlineCopies()
              .then(({ keepList }) => keepList(requestOwner, kind, data))
              .catch(() => undefined);
          }
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (isApiError(error, 'NETWORK')) void showKept();
          else setLoaded(failed);
        },
      );
    return () => controller.abort();
  }, [key, attempt, kind, offlineAnswer]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  const current = loaded.key === requestKey;
  const failedNow = loaded.failed && current;
  // Another owner's list is never shown, not even while hers loads.
  const mine = loaded.owner === owner;
  const offlineSavedAt = failedNow || !mine ? null : loaded.offlineSavedAt;
  useReportOfflineList(kind, offlineSavedAt);
  useAskPin(current && mine && loaded.locked ? owner : null);

  // Back online, the kept list gives way to the server's answer by itself.
  useEffect(() => {
    if (offlineSavedAt === null) return;
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [offlineSavedAt, reload]);

  const data = mine ? loaded.data : null;
  return useMemo(
    () => ({ data, loading: !current, failed: failedNow, reload, offlineSavedAt }),
    [data, current, failedNow, reload, offlineSavedAt],
  );
}
