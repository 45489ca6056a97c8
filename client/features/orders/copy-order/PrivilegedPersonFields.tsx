import type { CopyOrderField } from '@common/validation/order-copy';
import { TextField } from '../../../components/ui/TextField';
import { useT, type MessageKey } from '../../../lib/intl';
import type { CopyOrderValues } from './copy-order-values';

type Props = {
  values: CopyOrderValues;
  change: <K extends keyof CopyOrderValues>(key: K, value: CopyOrderValues[K]) => void;
  errorOf: (field: CopyOrderField) => MessageKey | undefined;
};

/** The person she allows to collect the copy, with the number of a Polish ID card or a passport (DECISIONS.md 9). */
export function PrivilegedPersonFields({ values, change, errorOf }: Props) {
  const t = useT();
  const messageOf = (field: CopyOrderField) => {
    const key = errorOf(field);
    return key && t(key);
  };
  return (
    <fieldset className="copy-order__group">
      <legend>{t('orderCopy.privilegedPerson.legend')}</legend>
      <TextField
        name="privilegedPerson.name"
        label={t('orderCopy.privilegedPerson.name.label')}
        value={values.privilegedName}
        onChange={(typed) => change('privilegedName', typed)}
        autoComplete="off"
        isRequired
        errorMessage={messageOf('privilegedPerson.name')}
      />
      <TextField
        name="privilegedPerson.id"
        label={t('orderCopy.privilegedPerson.id.label')}
        description={t('orderCopy.privilegedPerson.id.description')}
        value={values.privilegedId}
        onChange={(typed) => change('privilegedId', typed.toUpperCase())}
        autoComplete="off"
        spellCheck="false"
        isRequired
        errorMessage={messageOf('privilegedPerson.id')}
      />
    </fieldset>
  );
}
