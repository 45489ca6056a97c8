import type { ScreeningDocument } from '@common/types/screenings';
import { Radio, RadioGroup } from '../../../components/ui/RadioGroup';
import { useT } from '../../../lib/intl';
import { DOCUMENT_LANGUAGE_LABELS, documentLanguage } from '../../../lib/screening-result';

/** Which of the screening's descriptions is translated, named as on the result page. */
export function DocumentChoice(props: { descriptions: ScreeningDocument[]; value: string | null; onChange: (id: string) => void }) {
  const t = useT();
  if (props.descriptions.length === 0) return <p>{t('orders.checkout.noDocuments')}</p>;
  return (
    <RadioGroup label={t('orders.checkout.document')} value={props.value} onChange={props.onChange} isRequired>
      {props.descriptions.map((document) => (
        <Radio key={document.id} value={document.id}>
          {t(DOCUMENT_LANGUAGE_LABELS[documentLanguage(document.name)])}
        </Radio>
      ))}
    </RadioGroup>
  );
}
