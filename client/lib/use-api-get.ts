import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, type QueryValue } from './api';

export type ApiGet<T> = {
  /** The last answer; kept while the next request (new query or reload) runs. */
  data: T | null;
  /** A request for the current query is under way. */
  loading: boolean;
  /** The last request for the current query failed. */
  failed: boolean;
  /** Asks the server again, even for the same query. */
  reload: () => void;
};

/**
 * A GET whose answer a page shows: asked again when the path or query changes (the older request
 * is aborted, so a late answer never replaces a newer one) and on `reload`.
 */
export function useApiGet<T>(path: string, query: Record<string, QueryValue> = {}): ApiGet<T> {
  const key = JSON.stringify([path, query]);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<{ key: string; data: T | null; failed: boolean }>({ key: '', data: null, failed: false });
  const requestKey = `${key}#${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    const [requestPath, requestQuery] = JSON.parse(key) as [string, Record<string, QueryValue>];
    const answered = `${key}#${attempt}`;
    api.get<T>(requestPath, { query: requestQuery, signal: controller.signal }).then(
      (data) => setLoaded({ key: answered, data, failed: false }),
      () => {
        if (!controller.signal.aborted) setLoaded((previous) => ({ key: answered, data: previous.data, failed: true }));
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  const current = loaded.key === requestKey;
  // The same object until something changes, so memoised parts of a page skip re-rendering.
  return useMemo(() => ({ data: loaded.data, loading: !current, failed: loaded.failed && current, reload }), [loaded, current, reload]);
}
