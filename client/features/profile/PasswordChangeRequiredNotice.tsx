import { useT } from '../../lib/intl';

/**
 * The red notice of spec section 2. role="alert": a patient sent here by the guard hears at once
 * why she cannot go anywhere else. The icon keeps the warning visible without relying on colour.
 */
export function PasswordChangeRequiredNotice() {
  const t = useT();
  return (
    <div role="alert" className="password-required-notice">
      <svg className="password-required-notice__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 3 2 21h20L12 3z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        <path d="M12 10v5m0 2.5v.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <p>{t('profile.passwordChangeRequired')}</p>
    </div>
  );
}
