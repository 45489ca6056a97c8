import { pathFor } from '../../routes/paths';
import { LinkButton } from '../../components/ui/LinkButton';
import { useT } from '../../lib/intl';
import { ResetCard } from './ResetCard';

/**
 * reset_password_link_sent. The server answers the same whether or not the address has an
 * account (DECISIONS.md 5), so the page says "if" rather than promising a message.
 */
export default function ResetLinkSentPage() {
  const t = useT();
  return (
    // "Message sent" is the contact form's heading too; the tab's title says which message.
    <ResetCard title={t('passwordReset.sent.title')} documentTitle={t('passwordReset.sent.documentTitle')}>
      <p>{t('passwordReset.sent.body')}</p>
      <p>{t('passwordReset.sent.hint')}</p>
      <p className="reset-card__links">
        <LinkButton href={pathFor('login_portal')} variant="secondary">
          {t('passwordReset.backToLogin')}
        </LinkButton>
      </p>
    </ResetCard>
  );
}
