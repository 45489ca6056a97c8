import { Button } from '../../components/ui/Button';
import { useLanguage, useT } from '../../lib/intl';
import { setLanguage } from '../../stores/prefs-store';

/** One press to the other language; its name is written in that language ("English", "Polski"). */
export function LanguageSwitch() {
  const t = useT();
  const lang = useLanguage();
  const other = lang === 'pl' ? 'en' : 'pl';
  return (
    <Button variant="quiet" className="language-switch" onPress={() => setLanguage(other)}>
      <span lang={other}>{other === 'en' ? t('a11y.language.en') : t('a11y.language.pl')}</span>
    </Button>
  );
}
