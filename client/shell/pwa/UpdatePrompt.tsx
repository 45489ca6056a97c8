import { useSnapshot } from 'valtio';
import { Button } from '../../components/ui/Button';
import { cx } from '../../components/ui/classes';
import { useT } from '../../lib/intl';
import { dismissUpdate, pwaUpdate } from './update-store';
import './UpdatePrompt.css';

/** The service worker's code loads after the page (main.tsx); an update is only offered after it. */
const reloadIntoNewVersion = () => void import('./register').then((worker) => worker.reloadIntoNewVersion());

/**
 * A non-modal banner offering the new version of the portal. It never takes focus, so a patient
 * in the middle of a form is not interrupted; the status region stays mounted while empty so that
 * screen readers announce the message when it appears.
 */
export function UpdatePrompt() {
  const t = useT();
  const { available, dismissed } = useSnapshot(pwaUpdate);
  const visible = available && !dismissed;

  return (
    <div className={cx('update-prompt', visible && 'update-prompt--visible')}>
      <p className="update-prompt__message" role="status">
        {visible ? t('pwa.updateAvailable') : null}
      </p>
      {visible && (
        <div className="update-prompt__actions">
          <Button onPress={reloadIntoNewVersion}>{t('pwa.reload')}</Button>
          <Button variant="secondary" onPress={dismissUpdate}>
            {t('pwa.dismiss')}
          </Button>
        </div>
      )}
    </div>
  );
}
