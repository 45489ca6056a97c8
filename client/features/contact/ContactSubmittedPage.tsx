import { TextPage } from '../../components/TextPage';
import { useT } from '../../lib/intl';

/** contact_submitted: the message arrived; a way back to base (spec section 2). */
export default function ContactSubmittedPage() {
  const t = useT();
  return (
    <TextPage title={t('contact.submitted.title')} backToHome>
      <p>{t('contact.success')}</p>
    </TextPage>
  );
}
