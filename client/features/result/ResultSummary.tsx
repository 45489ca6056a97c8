import { useId } from 'react';
import { Card } from '../../components/ui/Card';
import { useIntl, useT } from '../../lib/intl';
import { capitalizeName } from '../../lib/display-name';
import type { ScreeningResult } from '@common/types/result';
import { isDescriptionCompleted, resultExplanation, resultWordingKey } from '../../lib/screening-result';
import { ResultExplanationNote } from './ResultExplanationNote';

/** The examination table, the BI-RADS result in words with what it means, and the description status. */
export function ResultSummary({ screening }: { screening: ScreeningResult['screening'] }) {
  const t = useT();
  const intl = useIntl();
  const wording = resultWordingKey(screening.result);
  const explanation = resultExplanation(screening.result);
  const explanationTitleId = useId();
  const completed = isDescriptionCompleted(screening.descriptionsStatus);
  const dose =
    screening.absorbedDoseMgy === null ? '—' : `${intl.formatNumber(screening.absorbedDoseMgy, { maximumFractionDigits: 2 })} mGy`;
  const rows = [
    { label: t('result.table.examinedAt'), value: intl.formatDate(screening.examinedAt, { dateStyle: 'long', timeStyle: 'short' }) },
    { label: t('result.table.firstName'), value: capitalizeName(screening.firstName) },
    { label: t('result.table.lastName'), value: capitalizeName(screening.lastName) },
    { label: t('result.table.absorbedDose'), value: dose },
  ];

  return (
    <Card title={t('result.summary.title')} className="result-card">
      <table className="result-table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{row.value}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">{t('result.table.result')}</th>
            <td
              className="result-table__result"
              data-testid="result-wording"
              aria-describedby={explanation ? explanationTitleId : undefined}
            >
              {wording ? t(wording) : ''}
            </td>
          </tr>
          <tr>
            <th scope="row">{t('result.table.descriptionStatus')}</th>
            <td>
              {completed ? (
                <span className="result-status result-status--done">
                  <span aria-hidden="true">✓ </span>
                  {t('result.status.completed')}
                </span>
              ) : (
                <span className="result-status">{t('result.status.inProgress')}</span>
              )}
            </td>
          </tr>
        </tbody>
      </table>
      {explanation && <ResultExplanationNote explanation={explanation} titleId={explanationTitleId} />}
    </Card>
  );
}
