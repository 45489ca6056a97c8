import { useT } from '../../lib/intl';
import { TextPage } from '../../components/TextPage';

/** Stands in for a route whose feature is not built yet, so every path of the table resolves. */
export default function ComingSoonPage() {
  const t = useT();
  return (
    <TextPage title={t('comingSoon.title')} backToHome>
      <p>{t('comingSoon.body')}</p>
    </TextPage>
  );
}
