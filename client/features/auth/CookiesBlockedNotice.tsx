import { useT } from '../../lib/intl';
import { COOKIES_BLOCKED, cookiesBlocked } from './login-errors';

/** Said before any attempt: without cookies no session can survive the login. */
export function CookiesBlockedNotice() {
  const t = useT();
  if (!cookiesBlocked()) return null;
  return (
    <div className="form-alert form-alert--static">
      <p>{t(COOKIES_BLOCKED.key)}</p>
    </div>
  );
}
