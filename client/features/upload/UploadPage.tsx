import { useCallback } from 'react';
import type { UploadedStudiesResponse, UploadLimits } from '@common/types/upload';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { Button } from '../../components/ui/Button';
import { useIntl, useT } from '../../lib/intl';
import { FilePicker } from './FilePicker';
import { formatSize } from './format-size';
import type { PickedFile } from './picked-files';
import { ProgressMeter } from './ProgressMeter';
import { SelectedFiles } from './SelectedFiles';
import { totalBytes } from './selection';
import { SkippedNotice } from './SkippedNotice';
import { UploadedStudies } from './UploadedStudies';
import { UploadReportView } from './UploadReportView';
import { useApiGet } from '../../lib/use-api-get';
import { useUpload } from './use-upload';
import './upload.css';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageTitle } from '../../components/ui/PageTitle';

/**
 * upload (/portal/upload-screenings): the patient sends images of earlier examinations, e.g. a
 * disc from another clinic. Only files with the DICOM marker make the list (the scan runs in a
 * worker); they travel in batches the server's limits allow.
 */
export default function UploadPage() {
  const t = useT();
  const intl = useIntl();
  const title = t('upload.title');
  useDocumentTitle(title);
  const limits = useApiGet<UploadLimits>('/dicom/limits');
  const studies = useApiGet<UploadedStudiesResponse>('/dicom');
  const upload = useUpload(limits.data, () => {
    studies.reload();
    limits.reload();
  });
  const { phase, files, add } = upload;
  // Stable, so the memoised picker skips the many re-renders of the progress bars.
  const onPick = useCallback((picked: Promise<PickedFile[]> | PickedFile[]) => void add(picked), [add]);
  const busy = phase.name !== 'idle';
  const spaceLeft = limits.data ? Math.max(0, limits.data.quotaBytes - limits.data.usedBytes) : 0;

  return (
    <article className="card upload-page">
      <header>
        <PageTitle className="upload-page__title">{title}</PageTitle>
        <p className="upload-page__lead">{t('upload.lead')}</p>
      </header>

      {limits.failed && !limits.data ? (
        <LoadFailure message={t('upload.limitsFailed')} onRetry={limits.reload} />
      ) : !limits.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <>
          <FilePicker isDisabled={busy} onPick={onPick} />
          <p className="upload-page__quota">
            {t('upload.quota', { used: formatSize(intl, limits.data.usedBytes), quota: formatSize(intl, limits.data.quotaBytes) })}
          </p>
          {phase.name === 'reading' && (
            <ProgressMeter
              label={t('upload.reading')}
              value={phase.progress && phase.progress.total > 0 ? (phase.progress.done / phase.progress.total) * 100 : undefined}
              valueLabel={phase.progress ? t('upload.readingCount', { done: phase.progress.done, total: phase.progress.total }) : undefined}
            />
          )}
          <SkippedNotice skipped={upload.skipped} maxFileBytes={limits.data.maxFileBytes} />
          <SelectedFiles files={files} isDisabled={busy} onRemove={upload.remove} onClear={upload.clear} />
          {totalBytes(files) > spaceLeft && (
            <p className="upload-page__warning">{t('upload.quotaWarning', { left: formatSize(intl, spaceLeft) })}</p>
          )}
          <div className="upload-page__send">
            <Button isDisabled={busy || files.length === 0} onPress={() => void upload.send()}>
              {t('upload.send')}
            </Button>
          </div>
          {phase.name === 'sending' && (
            <ProgressMeter
              label={t('upload.sending')}
              value={phase.progress.total > 0 ? (phase.progress.done / phase.progress.total) * 100 : 0}
              valueLabel={t('upload.sentBytes', {
                sent: formatSize(intl, phase.progress.done),
                total: formatSize(intl, phase.progress.total),
              })}
            />
          )}
          {upload.report && <UploadReportView report={upload.report} />}
        </>
      )}

      <UploadedStudies studies={studies} />
    </article>
  );
}
