import { useEffect, useRef, type Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
// react-aria's one live region, which its components announce through too. Neither react-aria's
// public entry nor react-aria-components exports `announce` (react-aria 3.53); this subpath is the
// package's own export of it (package.json lists react-aria for it).
import { announce } from 'react-aria/private/live-announcer/LiveAnnouncer';
import { useT } from '../../lib/intl';
import { cx } from './classes';

/** `link` looks like a text link, for actions that sit among links (e.g. in the footer). */
export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger' | 'link';

export type ButtonProps = Omit<AriaButtonProps, 'className'> & {
  variant?: ButtonVariant;
  className?: string;
  ref?: Ref<HTMLButtonElement>;
};

/**
 * A react-aria button in the portal's look. `isPending` is handled here rather than by react-aria:
 * react-aria announces a pending button by a live-region entry pointing at the button's id, and a
 * button that leads elsewhere (sign-in, an order) is gone before the entry is read, leaving an
 * image without a name in the page (axe role-img-alt) and nothing said. Here the button stays
 * focusable but inert while pending (aria-disabled, presses ignored, no form submission) and a
 * focused one says "loading" in words.
 */
export function Button({ variant = 'primary', className, isPending = false, onPress, type, ref, ...props }: ButtonProps) {
  const t = useT();
  const ownRef = useRef<HTMLButtonElement | null>(null);
  const wasPending = useRef(isPending);

  useEffect(() => {
    if (isPending && !wasPending.current && ownRef.current === document.activeElement) announce(t('app.loading'), 'assertive');
    wasPending.current = isPending;
  }, [isPending, t]);

  const setRef = (node: HTMLButtonElement | null) => {
    ownRef.current = node;
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  };

  return (
    <AriaButton
      {...props}
      ref={setRef}
      // A pending submit button must not submit again when Enter is pressed in a field.
      type={isPending && type === 'submit' ? 'button' : type}
      onPress={isPending ? undefined : onPress}
      aria-disabled={isPending ? true : props['aria-disabled']}
      data-pending={isPending || undefined}
      className={cx('btn', `btn--${variant}`, className)}
    />
  );
}
