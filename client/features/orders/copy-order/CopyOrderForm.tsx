import type { Province } from '@common/types/geography';
import type { Product } from '@common/types/orders';
import {
  PRIVILEGED_PICK_UP,
  REQUEST_TYPES,
  SEND_ON_ADDRESS,
  type CopyOrderField,
  type DocReceiver,
  type RequestType,
} from '@common/validation/order-copy';
import { Button } from '../../../components/ui/Button';
import { Checkbox } from '../../../components/ui/Checkbox';
import { CheckboxGroup } from '../../../components/ui/CheckboxGroup';
import { Form } from '../../../components/ui/Form';
import { Radio, RadioGroup } from '../../../components/ui/RadioGroup';
import { TextField } from '../../../components/ui/TextField';
import { useLanguage, useT } from '../../../lib/intl';
import { formatMoney } from '../money';
import { AddressFields } from './AddressFields';
import { PrivilegedPersonFields } from './PrivilegedPersonFields';
import { useCopyOrderForm } from './use-copy-order-form';

export type CopyOrderInfo = {
  screeningId: number;
  examinedAt: string | null;
  healthCareInstitution: string;
  email: string;
  products: { withImages: Product; withoutImages: Product | null };
  canOrder: boolean;
  openOrderId: number | null;
};

const REQUEST_TYPE_KEYS = {
  result: 'orderCopy.requestType.result',
  survey: 'orderCopy.requestType.survey',
  digital_images: 'orderCopy.requestType.digital_images',
  inspection: 'orderCopy.requestType.inspection',
} as const satisfies Record<RequestType, string>;

const RECEIVER_KEYS = ['orderCopy.docReceiver.0', 'orderCopy.docReceiver.1', 'orderCopy.docReceiver.2'] as const;

/** The copy-order form itself (spec sections 3 and 5), once the screening and the places are known. */
export function CopyOrderForm({ info, provinces }: { info: CopyOrderInfo; provinces: Province[] }) {
  const t = useT();
  const lang = useLanguage();
  const { areaRef, values, isPending, errorOf, change, onSubmit } = useCopyOrderForm(info.screeningId, info);
  const messageOf = (field: CopyOrderField) => {
    const key = errorOf(field);
    return key && t(key);
  };
  const withImages = values.requestTypes.includes('digital_images');
  const price = withImages ? info.products.withImages.price : (info.products.withoutImages?.price ?? info.products.withImages.price);
  const free = price.amountGrosze === 0;

  return (
    <div ref={areaRef}>
      <Form onSubmit={onSubmit} className="copy-order">
        <CheckboxGroup
          name="requestTypes"
          label={t('orderCopy.requestTypes.label')}
          value={values.requestTypes}
          onChange={(chosen) =>
            change(
              'requestTypes',
              REQUEST_TYPES.filter((type) => chosen.includes(type)),
            )
          }
          isRequired
          errorMessage={messageOf('requestTypes')}
        >
          {REQUEST_TYPES.map((type) => (
            <Checkbox key={type} value={type}>
              {t(REQUEST_TYPE_KEYS[type])}
            </Checkbox>
          ))}
        </CheckboxGroup>
        <TextField
          name="healthCareInstitution"
          label={t('orderCopy.healthCareInstitution.label')}
          value={info.healthCareInstitution}
          isReadOnly
          errorMessage={messageOf('healthCareInstitution')}
        />
        <RadioGroup
          name="docReceiver"
          label={t('orderCopy.docReceiver.label')}
          value={values.docReceiver === null ? null : String(values.docReceiver)}
          onChange={(chosen) => change('docReceiver', Number(chosen) as DocReceiver)}
          isRequired
          errorMessage={messageOf('docReceiver')}
        >
          {RECEIVER_KEYS.map((key, receiver) => (
            <Radio key={key} value={String(receiver)}>
              {t(key)}
            </Radio>
          ))}
        </RadioGroup>
        <TextField
          name="email"
          type="email"
          label={t('orderCopy.email.label')}
          description={t('orderCopy.email.description')}
          value={values.email}
          onChange={(typed) => change('email', typed)}
          autoComplete="email"
          spellCheck="false"
          isRequired={values.docReceiver === SEND_ON_ADDRESS}
          errorMessage={messageOf('email')}
        />
        {values.docReceiver === SEND_ON_ADDRESS && (
          <AddressFields provinces={provinces} values={values} change={change} errorOf={errorOf} />
        )}
        {values.docReceiver === PRIVILEGED_PICK_UP && <PrivilegedPersonFields values={values} change={change} errorOf={errorOf} />}
        <Checkbox
          name="statement1"
          isSelected={values.statement1}
          onChange={(checked) => change('statement1', checked)}
          isRequired
          errorMessage={messageOf('statement1')}
        >
          {t('orderCopy.statement1')}
        </Checkbox>
        <Checkbox
          name="statement2"
          isSelected={values.statement2}
          onChange={(checked) => change('statement2', checked)}
          isRequired
          errorMessage={messageOf('statement2')}
        >
          {t('orderCopy.statement2')}
        </Checkbox>
        <p className="copy-order__price" aria-live="polite">
          {free ? t('orderCopy.price.free') : t('orderCopy.price.paid', { price: formatMoney(price, lang) })}
        </p>
        <Button type="submit" isPending={isPending} className="copy-order__submit">
          {isPending && <span className="spinner" aria-hidden="true" />}
          {free ? t('orderCopy.submit') : t('orderCopy.submitAndPay')}
        </Button>
      </Form>
    </div>
  );
}
