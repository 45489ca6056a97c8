import { forwardRef } from 'react';
import { useT } from '../../lib/intl';
import type { Message } from './login-errors';

type FormAlertProps = {
  message: Message | null;
  /** Changes with every attempt, so the same message is announced again. */
  announcement?: number;
};

/**
 * The login failure above the form. The live region stays in the page even when empty: screen
 * readers announce changes of a region they already know more reliably than a new one.
 */
export const FormAlert = forwardRef<HTMLDivElement, FormAlertProps>(function FormAlert({ message, announcement = 0 }, ref) {
  const t = useT();
  return (
    <div ref={ref} role="alert" tabIndex={-1} className={message ? 'form-alert' : 'form-alert form-alert--empty'}>
      {message && <p key={announcement}>{t(message.key, message.values)}</p>}
    </div>
  );
});
