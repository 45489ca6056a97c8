import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Menu, MenuItem, MenuTrigger } from '../../components/ui/Menu';
import { pathFor } from '../../routes/paths';
import { useT, type MessageKey } from '../../lib/intl';
import { useSession } from '../../stores/session-store';
import { LogoutDialog, startLogout } from './LogoutDialog';
import { displayName } from '../../lib/display-name';

function PersonIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-9 2.2-9 5.5V22h18v-2.5c0-3.3-4.6-5.5-9-5.5z" />
    </svg>
  );
}

type MenuLink = { id: string; href: string; label: MessageKey };

const GUEST_LINKS: MenuLink[] = [{ id: 'audit', href: pathFor('audit'), label: 'userMenu.audit' }];
const PATIENT_LINKS: MenuLink[] = [
  { id: 'screenings', href: pathFor('mammography_screenings'), label: 'userMenu.myScreenings' },
  { id: 'my-data', href: pathFor('profile_portal'), label: 'userMenu.myData' },
  { id: 'upload', href: pathFor('upload'), label: 'userMenu.uploadScreenings' },
  { id: 'audit', href: pathFor('portal_audit'), label: 'userMenu.audit' },
];

/** Guest menu: audit, log out. Patient menu: my screenings, my data, upload screenings, audit, log out. */
export default function UserMenu() {
  const t = useT();
  const { status, user } = useSession();
  const [askingLogout, setAskingLogout] = useState(false);
  if (status !== 'signedIn' || !user) return null;
  const name = displayName(user) ?? t('userMenu.guestName');
  const links = user.guest ? GUEST_LINKS : PATIENT_LINKS;

  return (
    <>
      <MenuTrigger>
        <Button variant="quiet" className="user-menu__trigger" aria-label={`${t('userMenu.label')}: ${name}`}>
          <PersonIcon />
          <span className="user-menu__name">{name}</span>
        </Button>
        <Menu aria-label={t('userMenu.label')}>
          {links.map((link) => (
            <MenuItem key={link.id} id={link.id} href={link.href}>
              {t(link.label)}
            </MenuItem>
          ))}
          <MenuItem id="logout" onAction={() => void startLogout(user, () => setAskingLogout(true))}>
            {t('userMenu.logout')}
          </MenuItem>
        </Menu>
      </MenuTrigger>
      <LogoutDialog isOpen={askingLogout} onOpenChange={setAskingLogout} />
    </>
  );
}
