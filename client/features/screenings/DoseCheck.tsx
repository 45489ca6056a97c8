import { Button } from '../../components/ui/Button';
import { PopoverDialog, PopoverTrigger } from '../../components/ui/Popover';
import { useT } from '../../lib/intl';

/**
 * The "check" next to an absorbed dose: what the number means, in the patient's language, on the
 * spot (no page to leave the list for, and it works offline). The FAQ has no entry on the dose.
 */
export function DoseCheck() {
  const t = useT();
  return (
    <PopoverTrigger>
      <Button variant="link" className="dose-check" aria-label={t('screenings.dose.checkLabel')}>
        {t('screenings.dose.check')}
      </Button>
      <PopoverDialog title={t('result.table.absorbedDose')} placement="bottom">
        <p className="dose-check__text">{t('screenings.dose.explanation')}</p>
      </PopoverDialog>
    </PopoverTrigger>
  );
}
