import { useCallback } from 'react';
import type { UploadedStudiesResponse, UploadLimits } from '@common/types/upload';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useIntl, useT } from '../../lib/intl';
import { FilePicker } from './FilePicker';
import { formatSize } from './format-size';
import type { PickedFile } from './picked-files';
import { UploadAnnouncer } from './UploadAnnouncer';
import { UploadedStudies } from './UploadedStudies';
import { UploadProgress } from './UploadProgress';
import { UploadSummary } from './UploadSummary';
import { useApiGet } from '../../lib/use-api-get';
import { useResumableUpload } from './use-resumable-upload';
import './upload.css';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageTitle } from '../../components/ui/PageTitle';

/**
 * What her quota holds. Unfinished resumable uploads hold their declared size until they finish,
 * are cancelled or expire, and the server counts them when it accepts a new file: the page says
 * so, or a folder that seems to fit would be refused.
 */
function QuotaUsage({ limits }: { limits: UploadLimits }) {
  const t = useT();
  const intl = useIntl();
  return (
    <p className="upload-page__quota">
      {t('upload.quota', { used: formatSize(intl, limits.usedBytes), quota: formatSize(intl, limits.quotaBytes) })}
      {limits.reservedBytes > 0 && limits.reservedUntil && (
        <>
          {' '}
          {t('upload.quotaReserved', {
            reserved: formatSize(intl, limits.reservedBytes),
            until: intl.formatDate(limits.reservedUntil, { dateStyle: 'medium', timeStyle: 'short' }),
          })}
        </>
      )}
    </p>
  );
}

/**
 * upload (/portal/upload-screenings): the patient sends images of earlier examinations, e.g. a
 * disc from another clinic. Picking starts the upload: the marker scan runs in a worker and each
 * file it passes goes out at once with tus (docs/api.md "Resumable DICOM upload"), resumable
 * after a lost connection or a reload. The issue supersedes the spec's separate "Send" step.
 */
export default function UploadPage() {
  const t = useT();
  const title = t('upload.title');
  useDocumentTitle(title);
  const limits = useApiGet<UploadLimits>('/dicom/limits');
  const studies = useApiGet<UploadedStudiesResponse>('/dicom');
  const { reload: reloadStudies } = studies;
  const { reload: reloadLimits } = limits;
  const onSettled = useCallback(() => {
    reloadStudies();
    reloadLimits();
  }, [reloadStudies, reloadLimits]);
  const upload = useResumableUpload(limits.data, onSettled);
  const { pick } = upload;
  // Stable, so the memoised picker skips the many re-renders of the progress bars.
  const onPick = useCallback((picked: Promise<PickedFile[]> | PickedFile[]) => void pick(picked), [pick]);
  const { snapshot } = upload;

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
          <FilePicker isDisabled={upload.scanning} onPick={onPick} />
          <QuotaUsage limits={limits.data} />
          {snapshot && (
            <>
              <UploadProgress snapshot={snapshot} onPause={upload.pause} onResume={upload.resume} onCancel={upload.cancel} />
              <UploadSummary snapshot={snapshot} maxFileBytes={limits.data.maxFileBytes} onRetryFailed={upload.retryFailed} />
            </>
          )}
        </>
      )}
      <UploadAnnouncer snapshot={snapshot} />

      <UploadedStudies studies={studies} />
    </article>
  );
}
