import type { ReactNode } from 'react';
import {
  CheckboxGroup as AriaCheckboxGroup,
  FieldError,
  Label,
  Text,
  type CheckboxGroupProps as AriaCheckboxGroupProps,
} from 'react-aria-components';
import { cx } from './classes';
import './CheckboxGroup.css';

export type CheckboxGroupProps = Omit<AriaCheckboxGroupProps, 'className' | 'children'> & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: ReactNode;
  /** `Checkbox` elements, each with its `value`. */
  children: ReactNode;
  className?: string;
};

/** Several choices under one label, e.g. the event types of a filter; the value is the chosen `value`s. */
export function CheckboxGroup({ label, description, errorMessage, children, className, isInvalid, ...props }: CheckboxGroupProps) {
  return (
    <AriaCheckboxGroup {...props} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('field', 'checkbox-group', className)}>
      <Label className="field__label">{label}</Label>
      <div className="checkbox-group__options">{children}</div>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaCheckboxGroup>
  );
}
