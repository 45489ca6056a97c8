import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components';
import { cx } from './classes';

export type LinkProps = Omit<AriaLinkProps, 'className' | 'href'> & { href: string; className?: string };

/** An inline text link; app paths navigate through the router (see RouterProvider in App). */
export function Link({ className, ...props }: LinkProps) {
  return <AriaLink {...props} className={cx('text-link', className)} />;
}
