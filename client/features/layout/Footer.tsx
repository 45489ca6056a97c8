import { pathFor } from '../../app/routes';
import { Button } from '../../components/ui/Button';
import { Link } from '../../components/ui/Link';
import { useT } from '../../lib/intl';
import { openCookieSettings } from '../consent/consent-store';

// Spec section 1: the version string is shown only outside production.
const VERSION: string | null =
  import.meta.env.MODE !== 'production' ? ((import.meta.env.VITE_APP_VERSION as string | undefined) ?? 'dev') : null;

export function Footer() {
  const t = useT();
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
        {VERSION && <p className="footer__version">{t('footer.version', { version: VERSION })}</p>}
      </nav>
    </footer>
  );
}
