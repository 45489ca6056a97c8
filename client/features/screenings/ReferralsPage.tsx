import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/intl';
import { ReferralsView } from './ReferralsView';
import '../../documents/documents.css';
import './screenings.css';
import './referrals.css';

/** referral (/referral): the patient's referrals, each shown and saved as a PDF. */
export default function ReferralsPage() {
  const t = useT();
  useDocumentTitle(t('referrals.title'));
  return (
    <article className="screenings-page">
      <h1 className="screenings-page__title">{t('referrals.title')}</h1>
      <ReferralsView />
    </article>
  );
}
