import { useEffect, useMemo, useState } from 'react';
import type { AuditPage } from '@common/audit';
import { api, type QueryValue } from '../../lib/api';
import { useT } from '../../lib/intl';
import { notify } from '../../stores/notification-store';
import { apiQueryOf, type AuditFilters } from './audit-filters';
import { auditDescriptionTexts } from './audit-labels';

type Loaded = { key: string; page: AuditPage | null; failed: boolean };

export type AuditEntries = {
  /** The last page that arrived; kept on screen while the next one loads. */
  page: AuditPage | null;
  loading: boolean;
  failed: boolean;
  retry: () => void;
};

/**
 * `GET /api/audit` for the filters; a failure says so on the page and as a notification (spec
 * section 8). The description filter reads the descriptions in the current language: another
 * language asks again.
 */
export function useAuditEntries(filters: AuditFilters): AuditEntries {
  const t = useT();
  const descriptions = useMemo(() => auditDescriptionTexts(t), [t]);
  const key = JSON.stringify(apiQueryOf(filters, descriptions));
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>({ key: '', page: null, failed: false });
  const requestKey = `${key}#${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    const loadedKey = `${key}#${attempt}`;
    const query = JSON.parse(key) as Record<string, QueryValue>;
    api.get<AuditPage>('/audit', { query, signal: controller.signal }).then(
      (page) => setLoaded({ key: loadedKey, page, failed: false }),
      () => {
        if (controller.signal.aborted) return;
        setLoaded((previous) => ({ key: loadedKey, page: previous.page, failed: true }));
        notify({ kind: 'error', key: 'audit.fetchError' });
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  return {
    page: loaded.failed ? null : loaded.page,
    loading: loaded.key !== requestKey,
    failed: loaded.failed && loaded.key === requestKey,
    retry: () => setAttempt((count) => count + 1),
  };
}
