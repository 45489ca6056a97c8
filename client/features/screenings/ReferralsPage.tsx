import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/intl';
import { OfflineListsMark } from '../../documents/offline-lists';
import { ReferralsView } from './ReferralsView';
import '../../documents/documents.css';
import './screenings.css';
import './referrals.css';
import { PageTitle } from '../../components/ui/PageTitle';

/**
 * referral (/referral): the patient's referrals, each shown and saved as a PDF. Offline, the
 * installed app shows them as last seen on this device, marked as such.
 */
export default function ReferralsPage() {
  const t = useT();
  useDocumentTitle(t('referrals.title'));
  return (
    <article className="screenings-page">
      <PageTitle className="screenings-page__title">{t('referrals.title')}</PageTitle>
      <OfflineListsMark />
      <ReferralsView />
    </article>
  );
}
