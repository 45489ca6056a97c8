import { pathFor } from '../../routes/paths';
import { Button } from '../../components/ui/Button';
import { Link } from '../../components/ui/Link';
import { useT } from '../../lib/intl';
import { openCookieSettings } from '../consent/consent-store';
import { useServerVersion } from './use-server-version';

export function Footer() {
  const t = useT();
  const version = useServerVersion();
  return (
    <footer className="footer">
      <nav className="footer__inner" aria-label={t('footer.label')}>
        <ul className="footer__links">
          <li>
            <Link href={pathFor('faq')}>{t('footer.faq')}</Link>
          </li>
          <li>
            <Link href={pathFor('portal_regulations')}>{t('footer.regulations')}</Link>
          </li>
          <li>
            <Link href={pathFor('portal_consent')}>{t('footer.privacy')}</Link>
          </li>
          <li>
            <Link href={pathFor('contact')}>{t('footer.contact')}</Link>
          </li>
          <li>
            <Button variant="link" onPress={openCookieSettings}>
              {t('footer.cookieSettings')}
            </Button>
          </li>
        </ul>
        {version && <p className="footer__version">{t('footer.version', { version })}</p>}
      </nav>
    </footer>
  );
}
