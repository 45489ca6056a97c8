import { useState } from 'react';
import type { NoticePreferences } from '@common/types/notices';
import { Card } from '../../components/ui/Card';
import { Checkbox } from '../../components/ui/Checkbox';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { api } from '../../lib/api';
import { useT } from '../../lib/intl';
import { useApiGet } from '../../lib/use-api-get';
import { notifyError } from '../../stores/error-messages';
import { notify } from '../../stores/notification-store';

/**
 * "Notifications": whether the provider tells her by e-mail or SMS that a result is ready. The
 * choice is saved as soon as she makes it; a failed save puts the box back as it was.
 */
export function NoticesCard() {
  const t = useT();
  const loaded = useApiGet<NoticePreferences>('/user/notices');
  // What she chose here since the page loaded, over what the server said then.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const resultNotices = chosen ?? loaded.data?.resultNotices ?? null;

  async function save(wanted: boolean) {
    const before = chosen;
    setChosen(wanted);
    setSaving(true);
    try {
      const saved = await api.patch<NoticePreferences>('/user/notices', { resultNotices: wanted });
      setChosen(saved.resultNotices);
      notify({ kind: 'success', key: 'profile.notices.saved' });
    } catch (error) {
      setChosen(before);
      notifyError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title={t('profile.notices.title')} className="profile-card">
      {resultNotices === null ? (
        loaded.failed ? (
          <LoadFailure message={t('profile.notices.loadFailed')} onRetry={loaded.reload} />
        ) : (
          <div className="page-loading" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>{t('app.loading')}</span>
          </div>
        )
      ) : (
        <Checkbox
          isSelected={resultNotices}
          // Not isDisabled while saving: a disabled box drops the keyboard's focus to <body>.
          // A change made meanwhile waits for the answer instead, as aria-busy says.
          aria-busy={saving || undefined}
          onChange={(wanted) => {
            if (!saving) void save(wanted);
          }}
          description={t('profile.notices.resultReadyHint')}
        >
          {t('profile.notices.resultReady')}
        </Checkbox>
      )}
    </Card>
  );
}
