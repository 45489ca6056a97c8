import type { Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { cx } from './classes';

/** `link` looks like a text link, for actions that sit among links (e.g. in the footer). */
export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger' | 'link';

export type ButtonProps = Omit<AriaButtonProps, 'className'> & {
  variant?: ButtonVariant;
  className?: string;
  ref?: Ref<HTMLButtonElement>;
};

export function Button({ variant = 'primary', className, ...props }: ButtonProps) {
  return <AriaButton {...props} className={cx('btn', `btn--${variant}`, className)} />;
}
