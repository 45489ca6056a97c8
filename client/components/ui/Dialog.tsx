import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay, type DialogRenderProps } from 'react-aria-components';
import { cx } from './classes';

export type DialogProps = {
  title: ReactNode;
  children: ReactNode | ((renderProps: DialogRenderProps) => ReactNode);
  /** Controlled use; inside a DialogTrigger leave both out. */
  isOpen?: boolean;
  onOpenChange?: (isOpen: boolean) => void;
  /** Closing by clicking outside; off for decisions the user must make (cookie consent). */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  role?: 'dialog' | 'alertdialog';
  size?: 'small' | 'large';
  className?: string;
};

/** A modal dialog with a title that labels it; focus is trapped and returns to the trigger. */
export function Dialog({
  title,
  children,
  isOpen,
  onOpenChange,
  isDismissable = true,
  isKeyboardDismissDisabled,
  role,
  size = 'small',
  className,
}: DialogProps) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
      isKeyboardDismissDisabled={isKeyboardDismissDisabled}
    >
      <Modal className={cx('modal', `modal--${size}`, className)}>
        <AriaDialog className="dialog" role={role}>
          {(renderProps) => (
            <>
              <Heading slot="title" className="dialog__title">
                {title}
              </Heading>
              {typeof children === 'function' ? children(renderProps) : children}
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
