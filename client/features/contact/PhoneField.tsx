import { useId } from 'react';
import { isPolishPhoneNumber, isValidPhoneNumber } from '@common/validation/contact';
import { TextField } from '../../components/ui/TextField';
import { useT, type MessageKey } from '../../lib/intl';

type PhoneFieldProps = {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: MessageKey | undefined;
};

/**
 * The phone number, with the warning of spec section 5 while typing: a valid number that is not
 * Polish may still be sent, so the warning never blocks. It lives in a status region that stays
 * in the page, so screen readers announce it when it appears.
 */
export function PhoneField({ value, onChange, onBlur, error }: PhoneFieldProps) {
  const t = useT();
  const warningId = useId();
  const warn = !error && isValidPhoneNumber(value) && !isPolishPhoneNumber(value);
  return (
    <div className="contact-phone">
      <TextField
        name="phoneNumber"
        type="tel"
        label={t('contact.phone.label')}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        isRequired
        autoComplete="tel"
        aria-describedby={warningId}
        errorMessage={error && t(error)}
      />
      <p id={warningId} role="status" className="field__warning">
        {warn ? t('contact.phone.notPolish') : null}
      </p>
    </div>
  );
}
