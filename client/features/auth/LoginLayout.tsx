import type { ReactNode } from 'react';
import { Card } from '../../components/ui/Card';
import { Link } from '../../components/ui/Link';
import { pathFor } from '../../routes/paths';
import { useT } from '../../lib/intl';
import { InfoCard } from './InfoCard';
import './auth.css';

type LoginLayoutProps = {
  title: string;
  intro: string;
  /** The form, with its alert. */
  children: ReactNode;
};

/** Both login screens: the form card with the FAQ help link, and the screening info card. */
export function LoginLayout({ title, intro, children }: LoginLayoutProps) {
  const t = useT();
  return (
    <div className="login-page">
      <Card title={title} headingLevel={1} className="login-card">
        <p className="login-card__intro">{intro}</p>
        {children}
        <p className="login-card__help">
          <Link href={pathFor('faq')}>{t('login.help')}</Link>
        </p>
      </Card>
      <InfoCard />
    </div>
  );
}
