import type { ConsultationSlot } from '@common/types/orders';
import { LoadFailure } from '../../../components/ui/LoadFailure';
import { Radio, RadioGroup } from '../../../components/ui/RadioGroup';
import { useIntl, useT } from '../../../lib/intl';
import type { ApiGet } from '../../../lib/use-api-get';

/** The patient's own zone, named, because a consultation is booked for a moment, not a wall-clock time. */
const ownTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The free consultation slots (earliest first), in her time zone, with the radiologist's name. */
export function SlotChoice(props: { slots: ApiGet<ConsultationSlot[]>; value: number | null; onChange: (slotId: number) => void }) {
  const t = useT();
  const intl = useIntl();
  const { data, loading, failed, reload } = props.slots;
  if (failed) return <LoadFailure message={t('orders.checkout.loadError')} onRetry={reload} />;
  if (!data) return <p role="status">{t('orders.checkout.slotsLoading')}</p>;
  if (data.length === 0) return <p role="status">{t('orders.checkout.noSlots')}</p>;
  return (
    <RadioGroup
      label={t('orders.checkout.slots')}
      description={t('orders.checkout.timeZone', { zone: ownTimeZone() })}
      value={props.value === null ? null : String(props.value)}
      onChange={(value) => props.onChange(Number(value))}
      isDisabled={loading}
      isRequired
    >
      {data.map((slot) => (
        <Radio key={slot.id} value={String(slot.id)}>
          {t('orders.checkout.slot', {
            when: intl.formatDate(slot.startsAt, { dateStyle: 'full', timeStyle: 'short' }),
            minutes: slot.durationMinutes,
            radiologist: slot.radiologistName,
          })}
        </Radio>
      ))}
    </RadioGroup>
  );
}
