import type { ReactNode } from 'react';
import { CheckboxButton, CheckboxField, FieldError, Text, type CheckboxFieldProps } from 'react-aria-components';
import { cx } from './classes';

export type CheckboxProps = Omit<CheckboxFieldProps, 'className' | 'children'> & {
  /** The label; it may hold a link (e.g. to the regulations). */
  children: ReactNode;
  description?: ReactNode;
  errorMessage?: ReactNode;
  className?: string;
};

export function Checkbox({ children, description, errorMessage, className, isInvalid, ...props }: CheckboxProps) {
  return (
    <CheckboxField {...props} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('checkbox', className)}>
      <CheckboxButton className="checkbox__control">
        {({ isSelected }) => (
          <>
            <span className="checkbox__box" aria-hidden="true">
              {isSelected && (
                <svg viewBox="0 0 18 18" focusable="false">
                  <polyline points="3.5 9.5 7.5 13.5 14.5 5" />
                </svg>
              )}
            </span>
            <span className="checkbox__label">{children}</span>
          </>
        )}
      </CheckboxButton>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </CheckboxField>
  );
}
