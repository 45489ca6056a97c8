import { useId } from 'react';
import { useSnapshot } from 'valtio';
import type { ScreeningListItem } from '@common/types/screenings';
import { pathFor } from '../../routes/paths';
import { Link } from '../../components/ui/Link';
import { useIntl, useT } from '../../lib/intl';
import { prefs } from '../../stores/prefs-store';
import { downloadName } from '../../documents/download-names';
import { PdfViewer } from '../../documents/PdfViewer';
import { DOCUMENT_LANGUAGE_LABELS, documentLanguage } from '../../lib/screening-result';
import { EXAMINED_AT } from './ScreeningsTable';
import { ScreeningImagesLink } from '../../components/images/ScreeningImagesLink';

/**
 * The documents of the selected screening, in the result page's viewers (same requests, same
 * download names), and the way to its result page and survey.
 */
export function ScreeningDetails({ item }: { item: ScreeningListItem }) {
  const t = useT();
  const intl = useIntl();
  const headingId = useId();
  const { lang } = useSnapshot(prefs);
  const { screening, documents } = item;
  const examinedAt = screening.createdAt;
  const descriptions = documents.filter((document) => document.type === 'description');
  const referral = documents.find((document) => document.type === 'referral');

  return (
    <section className="card screening-details" aria-labelledby={headingId}>
      <h2 id={headingId} className="screening-details__title">
        {t('screenings.details.title', { date: intl.formatDate(examinedAt, EXAMINED_AT) })}
      </h2>
      <ul className="screening-details__links">
        <li>
          <Link href={pathFor('screening_of_patient', { id: screening.id })}>{t('screenings.details.resultPage')}</Link>
        </li>
        <li>
          <Link href={pathFor('survey_of_screening', { id: screening.id })}>{t('result.survey.title')}</Link>
        </li>
        <ScreeningImagesLink screeningId={screening.id} variant="listItem" />
      </ul>
      {descriptions.length === 0 && <p>{t('result.documents.noDescriptions')}</p>}
      {descriptions.map((document) => (
        <PdfViewer
          key={document.id}
          title={t(DOCUMENT_LANGUAGE_LABELS[documentLanguage(document.name)])}
          source={{ path: '/screening/download-result', query: { documentId: document.id, screeningId: screening.id, lang } }}
          fileName={downloadName('description', lang, { examinedAt, documentLanguage: document.language ?? 'pl' })}
        />
      ))}
      {referral && (
        <PdfViewer
          title={t('result.documents.referral')}
          source={{ path: '/screening/referral', query: { id: screening.id, lang } }}
          fileName={downloadName('referral', lang, { examinedAt })}
          fetchErrorKey="result.errors.referral"
        />
      )}
      {item.hasFacilitiesList && (
        <PdfViewer
          title={t('result.documents.facilitiesList')}
          source={{ path: '/screening/download-wykaz', query: { screeningId: screening.id, lang } }}
          fileName={downloadName('facilitiesList', lang, { examinedAt })}
        />
      )}
    </section>
  );
}
