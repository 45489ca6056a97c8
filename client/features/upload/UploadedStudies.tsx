import { memo } from 'react';
import type { UploadedStudiesResponse } from '@common/types/upload';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT } from '../../lib/intl';
import { formatSize } from './format-size';
import type { ApiGet } from '../../lib/use-api-get';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { StudyImages } from '../../components/images/StudyImages';

const UPLOADED_AT: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' };

/**
 * The patient's uploaded studies (`GET /api/dicom`), newest upload first as the server sends them.
 * Memoised: progress updates re-render the page often, and this table need not follow them.
 */
export const UploadedStudies = memo(function UploadedStudies({ studies }: { studies: ApiGet<UploadedStudiesResponse> }) {
  const t = useT();
  const intl = useIntl();
  return (
    <section className="upload-studies" aria-labelledby="upload-studies-title">
      <h2 id="upload-studies-title" className="upload-page__subtitle">
        {t('upload.studies.title')}
      </h2>
      {studies.failed ? (
        <LoadFailure message={t('upload.studies.loadFailed')} onRetry={studies.reload} />
      ) : !studies.data ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <div className="table-cards-box">
          <Table aria-label={t('upload.studies.title')} className="table--cards">
            <TableHeader>
              <Column isRowHeader>{t('upload.studies.column.date')}</Column>
              <Column>{t('upload.studies.column.modalities')}</Column>
              <Column>{t('upload.studies.column.images')}</Column>
              <Column>{t('upload.studies.column.size')}</Column>
              <Column>{t('upload.studies.column.uploadedAt')}</Column>
              <Column>{t('images.studyColumn')}</Column>
            </TableHeader>
            <TableBody renderEmptyState={() => <p className="upload-studies__empty">{t('upload.studies.empty')}</p>}>
              {studies.data.studies.map((study) => (
                <Row key={study.studyInstanceUid} id={study.studyInstanceUid}>
                  <Cell data-label={t('upload.studies.column.date')}>
                    {study.studyDate ? (
                      // A calendar day from the image header: no time zone may shift it.
                      <time dateTime={study.studyDate}>
                        {intl.formatDate(`${study.studyDate}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' })}
                      </time>
                    ) : (
                      t('upload.studies.unknown')
                    )}
                  </Cell>
                  <Cell data-label={t('upload.studies.column.modalities')}>
                    {study.modalities.join(', ') || t('upload.studies.unknown')}
                  </Cell>
                  <Cell data-label={t('upload.studies.column.images')}>{intl.formatNumber(study.instances)}</Cell>
                  <Cell data-label={t('upload.studies.column.size')}>{formatSize(intl, study.sizeBytes)}</Cell>
                  <Cell data-label={t('upload.studies.column.uploadedAt')}>
                    <time dateTime={study.lastUploadedAt}>{intl.formatDate(study.lastUploadedAt, UPLOADED_AT)}</time>
                  </Cell>
                  <Cell data-label={t('images.studyColumn')}>
                    <StudyImages study={study} />
                  </Cell>
                </Row>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
});
