import { useIntl, useT } from '../lib/intl';

/**
 * "Offline copy from <date>": what the page shows is the copy kept on this device at `savedAt`,
 * not the server's answer. `note` says what else the page cannot do without a connection.
 */
export function OfflineCopyMark({ savedAt, note }: { savedAt: string; note?: string }) {
  const t = useT();
  const intl = useIntl();
  return (
    <p role="status" className="offline-mark">
      {t('offline.mark', { date: intl.formatDate(savedAt, { dateStyle: 'long', timeStyle: 'short' }) })}
      {note && <span className="offline-mark__note">{note}</span>}
    </p>
  );
}
