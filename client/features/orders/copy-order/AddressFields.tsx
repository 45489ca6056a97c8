import { useState } from 'react';
import type { City, Province } from '@common/types/geography';
import { formatPostalCode, type CopyOrderField } from '@common/validation/order-copy';
import { ComboBox, type ComboBoxOption } from '../../../components/ui/ComboBox';
import { TextField } from '../../../components/ui/TextField';
import { useT, type MessageKey } from '../../../lib/intl';
import type { CopyOrderValues } from './copy-order-values';
import { useCitySearch } from './use-city-search';

type Props = {
  provinces: Province[];
  values: CopyOrderValues;
  change: <K extends keyof CopyOrderValues>(key: K, value: CopyOrderValues[K]) => void;
  errorOf: (field: CopyOrderField) => MessageKey | undefined;
};

const KIND_KEYS = { city: 'orderCopy.city.kind.city', village: 'orderCopy.city.kind.village' } as const;

/** The address of a copy sent by post: province, a place of the register, postal code, street. */
export function AddressFields({ provinces, values, change, errorOf }: Props) {
  const t = useT();
  const messageOf = (field: CopyOrderField) => {
    const key = errorOf(field);
    return key && t(key);
  };
  const [provinceInput, setProvinceInput] = useState(values.province?.name ?? '');
  const [cityInput, setCityInput] = useState(values.city?.name ?? '');
  const search = useCitySearch(values.province?.tId ?? null, values.city && cityInput === values.city.name ? '' : cityInput);

  // Spec section 5: the province list filters by the typed text, whatever its case.
  const typedProvince = provinceInput.trim().toLocaleLowerCase('pl');
  const provinceOptions: ComboBoxOption[] = provinces
    .filter((province) => province.name === values.province?.name || province.name.toLocaleLowerCase('pl').includes(typedProvince))
    .map((province) => ({ id: province.id, textValue: province.name }));

  const cityOption = (city: City): ComboBoxOption => ({
    id: city.id,
    textValue: city.name,
    content: (
      <>
        <span className="copy-order__city-name">{city.name}</span>
        <span className="copy-order__city-place">
          {t('orderCopy.city.place', { district: city.district, municipality: city.municipality })}
          {city.kind && `, ${t(KIND_KEYS[city.kind])}`}
        </span>
      </>
    ),
  });
  // The chosen place stays an option while the list shows another search.
  const cities =
    values.city && !search.cities.some((city) => city.id === values.city!.id) ? [values.city, ...search.cities] : search.cities;

  function chooseProvince(id: number | null) {
    const province = provinces.find((candidate) => candidate.id === id) ?? null;
    if (province?.id === values.province?.id) return;
    change('province', province);
    setProvinceInput(province?.name ?? '');
    // Spec section 5: another province clears the chosen place and its options.
    change('city', null);
    setCityInput('');
  }

  function chooseCity(id: number | null) {
    const city = cities.find((candidate) => candidate.id === id) ?? null;
    change('city', city);
    setCityInput(city?.name ?? '');
  }

  const cityEmpty = !values.province
    ? t('orderCopy.city.needsProvince')
    : cityInput.trim().length < 2
      ? t('orderCopy.city.description')
      : search.searching
        ? t('orderCopy.city.searching')
        : search.failed
          ? t('errors.resourceUnavailable')
          : t('orderCopy.city.none');

  return (
    <fieldset className="copy-order__group">
      <legend>{t('orderCopy.address.legend')}</legend>
      <ComboBox
        name="address.province"
        label={t('orderCopy.province.label')}
        options={provinceOptions}
        emptyMessage={t('orderCopy.province.none')}
        selectedKey={values.province?.id ?? null}
        onSelectionChange={(key) => chooseProvince(key === null ? null : Number(key))}
        inputValue={provinceInput}
        onInputChange={setProvinceInput}
        // Not "focus": after a refused submit focus lands here, and an open list would cover the
        // form and hide it from assistive technology. Typing, ArrowDown or the button opens it.
        menuTrigger="input"
        allowsEmptyCollection
        isRequired
        errorMessage={messageOf('address.province')}
      />
      <ComboBox
        name="address.city"
        label={t('orderCopy.city.label')}
        description={t('orderCopy.city.description')}
        options={cities.map(cityOption)}
        emptyMessage={cityEmpty}
        selectedKey={values.city?.id ?? null}
        onSelectionChange={(key) => chooseCity(key === null ? null : Number(key))}
        inputValue={cityInput}
        onInputChange={(text) => {
          setCityInput(text);
          if (values.city && text !== values.city.name) change('city', null);
        }}
        allowsEmptyCollection
        isDisabled={!values.province}
        isRequired
        errorMessage={messageOf('address.city')}
      />
      <div className="copy-order__row">
        <TextField
          name="address.postalCode"
          label={t('orderCopy.postalCode.label')}
          description={t('orderCopy.postalCode.description')}
          value={values.postalCode}
          onChange={(typed) => change('postalCode', formatPostalCode(typed))}
          inputMode="numeric"
          autoComplete="postal-code"
          isRequired
          errorMessage={messageOf('address.postalCode')}
        />
        <TextField
          name="address.street"
          label={t('orderCopy.street.label')}
          value={values.street}
          onChange={(typed) => change('street', typed)}
          autoComplete="address-line1"
          isRequired
          errorMessage={messageOf('address.street')}
        />
      </div>
      <div className="copy-order__row">
        <TextField
          name="address.houseNumber"
          label={t('orderCopy.houseNumber.label')}
          value={values.houseNumber}
          onChange={(typed) => change('houseNumber', typed)}
          isRequired
          errorMessage={messageOf('address.houseNumber')}
        />
        <TextField
          name="address.apartmentNumber"
          label={t('orderCopy.apartmentNumber.label')}
          value={values.apartmentNumber}
          onChange={(typed) => change('apartmentNumber', typed)}
          errorMessage={messageOf('address.apartmentNumber')}
        />
      </div>
    </fieldset>
  );
}
