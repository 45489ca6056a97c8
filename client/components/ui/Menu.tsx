import type { ReactNode } from 'react';
import {
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  Popover,
  type MenuItemProps as AriaMenuItemProps,
  type MenuProps as AriaMenuProps,
} from 'react-aria-components';
import { cx } from './classes';

export { MenuTrigger } from 'react-aria-components';

export type MenuProps<T extends object> = Omit<AriaMenuProps<T>, 'className'> & {
  className?: string;
  placement?: 'bottom end' | 'bottom start' | 'bottom';
};

/** The popup list of a MenuTrigger: put it right after the trigger Button. */
export function Menu<T extends object>({ className, placement = 'bottom end', ...props }: MenuProps<T>) {
  return (
    <Popover className="popover" placement={placement}>
      <AriaMenu {...props} className={cx('menu', className)} />
    </Popover>
  );
}

export type MenuItemProps = Omit<AriaMenuItemProps, 'className' | 'children'> & {
  children: ReactNode;
  icon?: ReactNode;
  className?: string;
};

/** With `href` it navigates (through the router for app paths); with `onAction` it acts. */
export function MenuItem({ children, icon, className, ...props }: MenuItemProps) {
  const textValue = typeof children === 'string' ? children : props.textValue;
  return (
    <AriaMenuItem {...props} textValue={textValue} className={cx('menu__item', className)}>
      {icon && (
        <span className="menu__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <span>{children}</span>
    </AriaMenuItem>
  );
}
