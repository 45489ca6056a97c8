import type { ReactNode } from 'react';
import {
  FieldError,
  Label,
  Text,
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';
import { cx } from './classes';
import './TextArea.css';

export type TextAreaProps = Omit<AriaTextFieldProps, 'className' | 'children'> & {
  label: ReactNode;
  /** Help under the field, linked to it for screen readers (e.g. a character counter). */
  description?: ReactNode;
  /** A message from the server or the client's own check; shows under the field and marks it invalid. */
  errorMessage?: ReactNode;
  rows?: number;
  className?: string;
};

/** A multi-line text field: label, text area, description and error, like TextField. */
export function TextArea({ label, description, errorMessage, rows = 5, className, isInvalid, ...props }: TextAreaProps) {
  return (
    <AriaTextField {...props} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('field', className)}>
      <Label className="field__label">{label}</Label>
      <AriaTextArea className="field__input field__input--multiline" rows={rows} />
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
