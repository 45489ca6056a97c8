import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';
import { cx } from './classes';

export type FormProps = Omit<AriaFormProps, 'className' | 'validationBehavior'> & { className?: string };

/**
 * Fields are validated with ARIA (not the browser's native bubbles) so every message comes from
 * our catalogs; `validationErrors` maps field names to the server's translated messages.
 */
export function Form({ className, ...props }: FormProps) {
  return <AriaForm {...props} validationBehavior="aria" className={cx('form', className)} />;
}
