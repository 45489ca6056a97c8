import { lazy, Suspense } from 'react';
import { Link } from '../../components/ui/Link';
import { useT } from '../../lib/intl';
import { AccessibilityButton } from '../accessibility/AccessibilityButton';
import { LanguageSwitch } from '../accessibility/LanguageSwitch';
import { useSession } from '../../stores/session-store';
import { useAfterPageLoad } from './after-page-load';
import { Logo } from './Logo';
import { pathFor } from '../../routes/paths';
import type { SessionUser } from '@common/types/session';

// Only signed-in users have a menu; visitors of the public pages never download it. Its code (a
// dozen chunks of react-aria) loads once the page has, not beside the page's own first requests.
const UserMenu = lazy(() => import('./UserMenu'));

/** Where the logo leads: a signed-in user's own start page, everyone else's home page. */
function startPath(user: SessionUser | null): string {
  if (!user) return pathFor('base');
  return user.guest ? pathFor('screening') : pathFor('mammography_screenings');
}

export function Header() {
  const t = useT();
  const { status, user } = useSession();
  const pageLoaded = useAfterPageLoad();
  return (
    <header className="header">
      <div className="header__inner">
        <Link href={startPath(status === 'signedIn' ? user : null)} className="header__brand">
          <Logo />
          <span className="header__name">{t('app.name')}</span>
        </Link>
        <div className="header__tools">
          <LanguageSwitch />
          <AccessibilityButton />
          {status === 'signedIn' && pageLoaded && (
            <Suspense fallback={null}>
              <UserMenu />
            </Suspense>
          )}
        </div>
      </div>
    </header>
  );
}
