import { Card } from '../../components/ui/Card';
import { useT } from '../../lib/intl';

/** What mammography screening is and who is invited: shown next to both login forms. */
export function InfoCard() {
  const t = useT();
  return (
    <Card title={t('login.info.title')} headingLevel={2} className="login-info">
      <p>{t('login.info.what')}</p>
      <p>{t('login.info.who')}</p>
      <p>{t('login.info.results')}</p>
    </Card>
  );
}
