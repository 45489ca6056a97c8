import { memo } from 'react';
import { Button } from '../../components/ui/Button';
import { useIntl, useT } from '../../lib/intl';
import { formatSize } from './format-size';
import { ProgressMeter } from './ProgressMeter';
import { roundedTimeLeft } from './transfer-speed';
import { uploadErrorKey } from './upload-messages';
import type { RunSnapshot } from './run-types';

type Props = {
  snapshot: RunSnapshot;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
};

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
}

/**
 * How far the upload got: the scan, the whole (bytes and files, speed, time left), each file on its
 * way, and the controls. Only the few files being sent have rows: 5,000 live rows would cost
 * more than the upload.
 */
export const UploadProgress = memo(function UploadProgress({ snapshot, onPause, onResume, onCancel }: Props) {
  const t = useT();
  const intl = useIntl();
  const { phase, scan, files, bytes, active } = snapshot;
  const open = phase === 'running' || phase === 'paused' || phase === 'offline';
  const timeLeft = snapshot.secondsLeft === null ? null : roundedTimeLeft(snapshot.secondsLeft);

  return (
    <section className="upload-progress-panel" aria-labelledby="upload-progress-title">
      <h2 id="upload-progress-title" className="upload-page__subtitle">
        {t('upload.progress.title')}
      </h2>
      {scan && (
        <ProgressMeter
          label={t('upload.reading')}
          value={percent(scan.done, scan.total)}
          valueLabel={t('upload.readingCount', { done: scan.done, total: scan.total })}
        />
      )}
      <ProgressMeter
        label={t('upload.sending')}
        value={percent(bytes.sent, bytes.total)}
        valueLabel={t('upload.sentBytes', { sent: formatSize(intl, bytes.sent), total: formatSize(intl, bytes.total) })}
      />
      <p className="upload-progress-panel__facts">
        <span>{t('upload.progress.files', { done: files.finished, total: files.total })}</span>
        {snapshot.bytesPerSecond !== null && (
          <span>{t('upload.progress.speed', { speed: formatSize(intl, snapshot.bytesPerSecond) })}</span>
        )}
        {timeLeft && (
          <span>
            {snapshot.secondsLeft! < 60
              ? t('upload.progress.lessThanMinute')
              : t('upload.progress.timeLeft', { hours: timeLeft.hours, minutes: timeLeft.minutes })}
          </span>
        )}
      </p>
      {phase === 'paused' && <p className="upload-progress-panel__state">{t('upload.progress.paused')}</p>}
      {phase === 'offline' && <p className="upload-progress-panel__state">{t('upload.progress.offline')}</p>}
      {phase === 'cancelled' && <p className="upload-progress-panel__state">{t('upload.progress.cancelled')}</p>}
      {snapshot.stoppedBy && <p className="upload-page__warning">{t(uploadErrorKey(snapshot.stoppedBy))}</p>}
      {open && (
        <div className="upload-progress-panel__actions">
          {phase === 'paused' ? (
            <Button variant="secondary" onPress={onResume}>
              {t('upload.resume')}
            </Button>
          ) : (
            <Button variant="secondary" onPress={onPause}>
              {t('upload.pause')}
            </Button>
          )}
          <Button variant="danger" onPress={onCancel}>
            {t('upload.cancel')}
          </Button>
        </div>
      )}
      {active.length > 0 && (
        <ul className="upload-progress-panel__files" aria-label={t('upload.progress.activeFiles')}>
          {active.map((file) => (
            <li key={file.id}>
              <ProgressMeter
                label={file.path}
                value={percent(file.sent, file.size)}
                valueLabel={t('upload.sentBytes', { sent: formatSize(intl, file.sent), total: formatSize(intl, file.size) })}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});
