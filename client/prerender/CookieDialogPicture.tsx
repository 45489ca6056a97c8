import { useT } from '../lib/intl';

/**
 * The cookie dialog as a first visit shows it (CookieConsentDialog, in react-aria's Modal, whose
 * markup this copies), for the page drawn at build time: react-aria draws no overlay on the
 * server. Without it the dialog, the largest text on a phone's first screen, would appear only
 * once the app has run (issue 16). Shown only while no consent cookie exists (the pre-paint
 * script marks <html>; shell/consent/cookie-consent.css); the app puts the real dialog in its
 * place at its first render (main.tsx).
 */
export function CookieDialogPicture() {
  const t = useT();
  return (
    <div className="modal-overlay cookie-dialog-picture">
      <div className="modal modal--small cookie-consent">
        <section className="dialog">
          <h2 className="dialog__title">{t('cookies.title')}</h2>
          <p>{t('cookies.intro')}</p>
          <div className="dialog__actions">
            <button type="button" className="btn btn--secondary">
              {t('cookies.adjust')}
            </button>
            <button type="button" className="btn btn--secondary">
              {t('cookies.rejectAll')}
            </button>
            <button type="button" className="btn btn--primary">
              {t('cookies.allowAll')}
            </button>
          </div>
        </section>
      </div>
    </div>
  );
}
