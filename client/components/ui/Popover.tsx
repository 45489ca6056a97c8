import type { ReactNode, RefObject } from 'react';
import { Dialog, Heading, Popover as AriaPopover } from 'react-aria-components';
import { cx } from './classes';

export { DialogTrigger as PopoverTrigger } from 'react-aria-components';

export type PopoverDialogProps = {
  title: ReactNode;
  children: ReactNode;
  className?: string;
  placement?: 'bottom end' | 'bottom start' | 'bottom';
  /**
   * Controlled use without a PopoverTrigger (e.g. a panel whose code loads on first press):
   * the element it points at, and the open state. Inside a PopoverTrigger leave these out.
   */
  triggerRef?: RefObject<Element | null>;
  isOpen?: boolean;
  onOpenChange?: (isOpen: boolean) => void;
};

/** A non-modal panel with a title; Escape or a click outside closes it, focus returns to the trigger. */
export function PopoverDialog({
  title,
  children,
  className,
  placement = 'bottom end',
  triggerRef,
  isOpen,
  onOpenChange,
}: PopoverDialogProps) {
  return (
    <AriaPopover className="popover" placement={placement} triggerRef={triggerRef} isOpen={isOpen} onOpenChange={onOpenChange}>
      <Dialog className={cx('popover-dialog', className)}>
        <Heading slot="title" className="popover-dialog__title">
          {title}
        </Heading>
        {children}
      </Dialog>
    </AriaPopover>
  );
}
