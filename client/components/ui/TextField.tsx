import type { ReactNode } from 'react';
import {
  FieldError,
  Input,
  Label,
  Text,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';
import { cx } from './classes';

export type TextFieldProps = Omit<AriaTextFieldProps, 'className' | 'children'> & {
  label: ReactNode;
  description?: ReactNode;
  /** A message from the server or the client's own check; shows under the field and marks it invalid. */
  errorMessage?: ReactNode;
  placeholder?: string;
  className?: string;
};

export function TextField({ label, description, errorMessage, placeholder, className, isInvalid, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('field', className)}>
      <Label className="field__label">{label}</Label>
      <Input className="field__input" placeholder={placeholder} />
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
