import { pathFor } from '../../routes/paths';
import { LinkButton } from '../../components/ui/LinkButton';
import { useT } from '../../lib/intl';
import { ResetCard } from './ResetCard';

/** password_changed: the new password is set and every session ended; sign in again. */
export default function PasswordChangedPage() {
  const t = useT();
  return (
    <ResetCard title={t('passwordReset.changed.title')}>
      <p role="status">{t('passwordReset.changed.body')}</p>
      <p className="reset-card__links">
        <LinkButton href={pathFor('login_portal')}>{t('passwordReset.changed.toLogin')}</LinkButton>
      </p>
    </ResetCard>
  );
}
