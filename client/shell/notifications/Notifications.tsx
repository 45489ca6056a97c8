import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { cx } from '../../components/ui/classes';
import { useT } from '../../lib/intl';
import { dismissNotification, NOTIFICATION_LIFETIME_MS, notifications, type Notification } from '../../stores/notification-store';
import { useKeepFocusUncovered } from './keep-focus-uncovered';
import './notifications.css';

const ICONS: Record<Notification['kind'], string> = {
  success: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  info: 'M11 7h2v2h-2zm0 4h2v6h-2zm1-9a10 10 0 1 0 0 20 10 10 0 0 0 0-20z',
  warning: 'M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z',
  error: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-2h2v2zm0-4h-2V7h2v6z',
};

function NotificationItem({ item }: { item: Notification }) {
  const t = useT();
  // Hovering or focusing a message pauses its timer, so nobody loses a message while reading it.
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (item.persistent || paused) return;
    const timer = setTimeout(() => dismissNotification(item.id), NOTIFICATION_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [item.id, item.persistent, paused]);

  return (
    <div
      className={cx('notification', `notification--${item.kind}`)}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <svg className="notification__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d={ICONS[item.kind]} />
      </svg>
      <p className="notification__text">{t(item.key, item.values)}</p>
      <button
        type="button"
        className="notification__close"
        aria-label={t('notifications.close')}
        onClick={() => dismissNotification(item.id)}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7l-1.4-1.4L9.2 12 2.9 5.7l1.4-1.4 6.3 6.3 6.3-6.3z" />
        </svg>
      </button>
    </div>
  );
}

/**
 * Two live regions that stay mounted (a region added together with its text is often not read):
 * errors interrupt as alerts, everything else is announced politely.
 */
export function Notifications() {
  const t = useT();
  const { items } = useSnapshot(notifications);
  const errors = items.filter((item) => item.kind === 'error');
  const others = items.filter((item) => item.kind !== 'error');
  const stack = useRef<HTMLElement>(null);
  useKeepFocusUncovered(stack);
  return (
    <section ref={stack} className="notifications" aria-label={t('notifications.region')}>
      <div role="alert">
        {errors.map((item) => (
          <NotificationItem key={item.id} item={item as Notification} />
        ))}
      </div>
      <div role="status">
        {others.map((item) => (
          <NotificationItem key={item.id} item={item as Notification} />
        ))}
      </div>
    </section>
  );
}
