import { Disclosure } from '../../components/ui/Disclosure';
import { useT } from '../../lib/intl';
import { refusalKey, uploadErrorKey } from './upload-messages';
import type { UploadReport } from './upload-sender';

function countBy<T, K>(items: readonly T[], keyOf: (item: T) => K, weight: (item: T) => number = () => 1): Map<K, number> {
  const counts = new Map<K, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + weight(item));
  return counts;
}

/** What the last send did with every file: stored, already there, refused (why), or not sent (why). */
export function UploadReportView({ report }: { report: UploadReport }) {
  const t = useT();
  const refusals = countBy(report.refused, (item) => item.reason);
  const failures = countBy(
    report.failed,
    (item) => item.code,
    (item) => item.files,
  );
  return (
    <section className="upload-report" aria-labelledby="upload-report-title">
      <h2 id="upload-report-title" className="upload-page__subtitle">
        {t('upload.report.title')}
      </h2>
      <ul className="upload-report__lines">
        <li>{t('upload.report.stored', { count: report.stored })}</li>
        {report.duplicates > 0 && <li>{t('upload.report.duplicates', { count: report.duplicates })}</li>}
        {[...refusals].map(([reason, count]) => (
          <li key={reason}>{t('upload.report.refused', { count, reason: t(refusalKey(reason)) })}</li>
        ))}
        {[...failures].map(([code, count]) => (
          <li key={code} className="upload-report__failure">
            {t('upload.report.failed', { count, reason: t(uploadErrorKey(code)) })}
          </li>
        ))}
      </ul>
      {report.refused.length > 0 && (
        <Disclosure title={t('upload.report.refusedFiles')} headingLevel={3}>
          <ul className="upload-report__files">
            {report.refused.map((item, index) => (
              <li key={`${item.name}-${index}`}>
                {t('upload.report.refusedFile', { name: item.name, reason: t(refusalKey(item.reason)) })}
              </li>
            ))}
          </ul>
        </Disclosure>
      )}
    </section>
  );
}
