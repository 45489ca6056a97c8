import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components';
import type { ButtonVariant } from './Button';
import { cx } from './classes';

export type LinkButtonProps = Omit<AriaLinkProps, 'className' | 'href'> & {
  /** An app path (navigates through the router) or a file/external address. */
  href: string;
  variant?: ButtonVariant;
  className?: string;
};

/** A link that looks like a button: navigation stays a link for assistive technology. */
export function LinkButton({ variant = 'primary', className, ...props }: LinkButtonProps) {
  return <AriaLink {...props} className={cx('btn', `btn--${variant}`, className)} />;
}
