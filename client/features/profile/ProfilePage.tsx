import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/intl';
import { useSession } from '../../stores/session-store';
import { PasswordChangeForm } from './PasswordChangeForm';
import { PasswordChangeRequiredNotice } from './PasswordChangeRequiredNotice';
import { NoticesCard } from './NoticesCard';
import { PersonalDataCard } from './PersonalDataCard';
import './profile.css';
import { PageTitle } from '../../components/ui/PageTitle';

/** profile_portal: the patient's own data, the password change and her notification choices (spec section 2). */
export default function ProfilePage() {
  const t = useT();
  useDocumentTitle(t('profile.title'));
  const { user } = useSession();
  // The guard renders this page only for a signed-in patient; a guest is sent to her screening.
  if (!user?.personalData) return null;

  return (
    <div className="profile-page">
      <PageTitle className="profile-page__title">{t('profile.title')}</PageTitle>
      {user.requirePasswordChange && <PasswordChangeRequiredNotice />}
      <PersonalDataCard user={user} />
      <PasswordChangeForm login={user.email ?? undefined} heldForPasswordChange={user.requirePasswordChange} />
      {/* The server holds everything but the profile until the password is changed. */}
      {!user.requirePasswordChange && <NoticesCard />}
    </div>
  );
}
