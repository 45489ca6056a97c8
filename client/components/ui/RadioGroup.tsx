import type { ReactNode } from 'react';
import {
  FieldError,
  Label,
  Radio as AriaRadio,
  RadioGroup as AriaRadioGroup,
  Text,
  type RadioGroupProps as AriaRadioGroupProps,
  type RadioProps as AriaRadioProps,
} from 'react-aria-components';
import { cx } from './classes';

export type RadioGroupProps = Omit<AriaRadioGroupProps, 'className' | 'children'> & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: ReactNode;
  children: ReactNode;
  /** "buttons" shows the options as a row of toggle buttons (for short choices). */
  appearance?: 'list' | 'buttons';
  className?: string;
};

export function RadioGroup({
  label,
  description,
  errorMessage,
  children,
  appearance = 'list',
  className,
  isInvalid,
  ...props
}: RadioGroupProps) {
  return (
    <AriaRadioGroup
      {...props}
      isInvalid={isInvalid || Boolean(errorMessage)}
      className={cx('radio-group', `radio-group--${appearance}`, className)}
    >
      <Label className="field__label">{label}</Label>
      <div className="radio-group__options">{children}</div>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaRadioGroup>
  );
}

export type RadioProps = Omit<AriaRadioProps, 'className' | 'children'> & { children: ReactNode; className?: string };

export function Radio({ children, className, ...props }: RadioProps) {
  return (
    <AriaRadio {...props} className={cx('radio', className)}>
      <span className="radio__dot" aria-hidden="true" />
      <span className="radio__label">{children}</span>
    </AriaRadio>
  );
}
