import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Checkbox } from '../../components/ui/Checkbox';
import { Dialog } from '../../components/ui/Dialog';
import { useT, type MessageKey, type MessageValues } from '../../lib/intl';
import {
  CONSENT_COOKIE_NAME,
  CONSENT_LIFETIME_DAYS,
  DEVICE_COOKIE_NAME,
  readConsent,
  SESSION_COOKIE_NAME,
  VISITOR_CSRF_COOKIE_NAME,
} from './consent-cookie';
import { closeCookieDialog, decideConsent } from './consent-store';
import './cookie-consent.css';

type CookieRow = {
  name: string;
  purpose: MessageKey;
  lifespan: MessageKey;
  lifespanValues?: MessageValues;
  type: MessageKey;
};

/** Every cookie the portal sets. All are necessary, so none can be switched off. */
const COOKIES: CookieRow[] = [
  {
    name: SESSION_COOKIE_NAME,
    purpose: 'cookies.session.purpose',
    lifespan: 'cookies.session.lifespan',
    type: 'cookies.type.necessary',
  },
  {
    name: VISITOR_CSRF_COOKIE_NAME,
    purpose: 'cookies.visitorCsrf.purpose',
    lifespan: 'cookies.session.lifespan',
    type: 'cookies.type.necessary',
  },
  {
    name: DEVICE_COOKIE_NAME,
    purpose: 'cookies.device.purpose',
    lifespan: 'cookies.device.lifespan',
    type: 'cookies.type.necessary',
  },
  {
    name: CONSENT_COOKIE_NAME,
    purpose: 'cookies.consent.purpose',
    lifespan: 'cookies.consent.lifespan',
    lifespanValues: { days: CONSENT_LIFETIME_DAYS },
    type: 'cookies.type.necessary',
  },
];

function CookieTable() {
  const t = useT();
  return (
    <table className="cookie-table">
      <caption>{t('cookies.table.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('cookies.table.name')}</th>
          <th scope="col">{t('cookies.table.purpose')}</th>
          <th scope="col">{t('cookies.table.lifespan')}</th>
          <th scope="col">{t('cookies.table.type')}</th>
          <th scope="col">{t('cookies.table.enabled')}</th>
        </tr>
      </thead>
      <tbody>
        {COOKIES.map((cookie) => (
          <tr key={cookie.name}>
            <th scope="row" data-label={t('cookies.table.name')}>
              <code>{cookie.name}</code>
            </th>
            <td data-label={t('cookies.table.purpose')}>{t(cookie.purpose)}</td>
            <td data-label={t('cookies.table.lifespan')}>{t(cookie.lifespan, cookie.lifespanValues)}</td>
            <td data-label={t('cookies.table.type')}>{t(cookie.type)}</td>
            <td data-label={t('cookies.table.enabled')}>
              <Checkbox isSelected isDisabled>
                <span className="visually-hidden">{t('cookies.enabledLabel', { name: cookie.name })}</span>
              </Checkbox>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Spec sections 1 and 4. On a first visit a decision is required (no closing by Escape or a
 * click outside), so the dialog does not come back on every page; reopened from the footer it
 * closes freely because a decision already exists.
 */
export default function CookieConsentDialog() {
  const t = useT();
  const [adjusting, setAdjusting] = useState(false);
  const [alreadyDecided] = useState(() => readConsent() !== null);

  return (
    <Dialog
      title={t('cookies.title')}
      isOpen
      onOpenChange={(isOpen) => {
        if (!isOpen) closeCookieDialog();
      }}
      isDismissable={alreadyDecided}
      isKeyboardDismissDisabled={!alreadyDecided}
      size={adjusting ? 'large' : 'small'}
      className="cookie-consent"
    >
      <p>{t('cookies.intro')}</p>
      {adjusting && (
        <>
          <p>{t('cookies.necessaryNote')}</p>
          <CookieTable />
        </>
      )}
      <div className="dialog__actions">
        {adjusting ? (
          <Button onPress={() => decideConsent('custom')}>{t('cookies.saveAndExit')}</Button>
        ) : (
          <Button variant="secondary" onPress={() => setAdjusting(true)}>
            {t('cookies.adjust')}
          </Button>
        )}
        <Button variant="secondary" onPress={() => decideConsent('reject-all')}>
          {t('cookies.rejectAll')}
        </Button>
        <Button onPress={() => decideConsent('allow-all')}>{t('cookies.allowAll')}</Button>
      </div>
    </Dialog>
  );
}
