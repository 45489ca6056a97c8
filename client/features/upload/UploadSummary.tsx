import { memo, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Disclosure } from '../../components/ui/Disclosure';
import { Pagination } from '../../components/ui/Pagination';
import { useIntl, useT } from '../../lib/intl';
import { formatSize } from './format-size';
import { refusalKey, skipKey, uploadErrorKey } from './upload-messages';
import { SKIP_REASONS, type FileProblem, type RunSnapshot } from './run-types';

/** Ten files a page: a disc may give thousands of problems, and only a page of them is rendered. */
const PROBLEMS_PAGE_SIZE = 10;

function countBy(problems: readonly FileProblem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { reason } of problems) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return counts;
}

/** The files that were refused or failed, by name, a page at a time. */
function ProblemFiles({ problems, describe }: { problems: readonly FileProblem[]; describe: (problem: FileProblem) => string }) {
  const [wantedPage, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(problems.length / PROBLEMS_PAGE_SIZE));
  const page = Math.min(wantedPage, pageCount);
  return (
    <>
      <ul className="upload-report__files">
        {problems.slice((page - 1) * PROBLEMS_PAGE_SIZE, page * PROBLEMS_PAGE_SIZE).map((problem) => (
          <li key={problem.id}>{describe(problem)}</li>
        ))}
      </ul>
      {pageCount > 1 && <Pagination page={page} pageCount={pageCount} onPageChange={setPage} />}
    </>
  );
}

type Props = { snapshot: RunSnapshot; maxFileBytes: number; onRetryFailed: () => void };

/** What happened to every picked file: stored, skipped and why, refused and why, failed and why. */
export const UploadSummary = memo(function UploadSummary({ snapshot, maxFileBytes, onRetryFailed }: Props) {
  const t = useT();
  const intl = useIntl();
  const refusals = countBy(snapshot.refused);
  const failures = countBy(snapshot.failed);
  const settled = snapshot.phase === 'finished' || snapshot.phase === 'cancelled';
  const problems = [...snapshot.refused, ...snapshot.failed];
  return (
    <section className="upload-report" aria-labelledby="upload-report-title">
      <h2 id="upload-report-title" className="upload-page__subtitle">
        {t('upload.report.title')}
      </h2>
      <ul className="upload-report__lines">
        <li>{t('upload.report.stored', { count: snapshot.stored })}</li>
        {SKIP_REASONS.filter((reason) => snapshot.skipped[reason] > 0).map((reason) => (
          <li key={reason}>{t(skipKey(reason), { count: snapshot.skipped[reason], max: formatSize(intl, maxFileBytes) })}</li>
        ))}
        {[...refusals].map(([reason, count]) => (
          <li key={reason}>{t('upload.report.refused', { count, reason: t(refusalKey(reason)) })}</li>
        ))}
        {[...failures].map(([code, count]) => (
          <li key={code} className="upload-report__failure">
            {t('upload.report.failed', { count, reason: t(uploadErrorKey(code)) })}
          </li>
        ))}
      </ul>
      {settled && snapshot.failed.length > 0 && (
        <div className="upload-report__actions">
          <Button onPress={onRetryFailed}>{t('upload.retryFailed')}</Button>
        </div>
      )}
      {problems.length > 0 && (
        <Disclosure title={t('upload.report.problemFiles')} headingLevel={3}>
          <ProblemFiles
            problems={problems}
            describe={(problem) =>
              t('upload.report.problemFile', {
                name: problem.path,
                reason: snapshot.failed.includes(problem) ? t(uploadErrorKey(problem.reason)) : t(refusalKey(problem.reason)),
              })
            }
          />
        </Disclosure>
      )}
    </section>
  );
});
