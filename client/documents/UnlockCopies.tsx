import { useEffect, useState } from 'react';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { Form } from '../components/ui/Form';
import { LinkButton } from '../components/ui/LinkButton';
import { TextField } from '../components/ui/TextField';
import { useFieldForm } from '../components/ui/use-field-form';
import { useDocumentTitle } from '../hooks/use-document-title';
import type { OwnerKey } from '../lib/device-db';
import { useT } from '../lib/intl';
import './documents.css';
import { pathFor } from '../routes/paths';
import { cancelPinRequest } from './copies-lock';
import { MAX_PIN_ATTEMPTS, pinAttemptsLeft } from './device-keys';
import { unlockKeptCopies } from './offline-copies';
import { MAX_PIN_DIGITS } from './pin-rules';

const FIELDS = ['pin'] as const;
const EMPTY = { pin: '' };

/**
 * The page that stands in for one shown from her kept copies until she typed her device PIN
 * (issue 16): the copies are sealed, and only the PIN opens them. Five wrong PINs in a row delete
 * them; she is told before the last try.
 */
export default function UnlockCopies({ ownerKey }: { ownerKey: OwnerKey }) {
  const t = useT();
  useDocumentTitle(t('offline.unlock.title'));
  const { areaRef, values, fieldErrors, isPending, change, refuse, submitWith } = useFieldForm(FIELDS, EMPTY);
  const [attemptsLeft, setAttemptsLeft] = useState<number>(MAX_PIN_ATTEMPTS);
  const [erased, setErased] = useState(false);

  useEffect(() => {
    let current = true;
    void pinAttemptsLeft(ownerKey).then((left) => {
      if (!current) return;
      // Nothing of hers is kept (any more): the page shows what it can without her copies.
      if (left === null) cancelPinRequest();
      else setAttemptsLeft(left);
    });
    return () => {
      current = false;
    };
  }, [ownerKey]);

  const onSubmit = submitWith(async () => {
    if (values.pin === '') {
      refuse({ pin: 'offline.unlock.errors.required' });
      return;
    }
    const outcome = await unlockKeptCopies(ownerKey, values.pin);
    // 'unlocked': the page she opened takes this one's place (copies-lock.ts).
    if (outcome.kind === 'wrongPin') {
      change('pin', '');
      setAttemptsLeft(outcome.attemptsLeft);
      refuse({ pin: 'offline.unlock.wrongPin' });
    } else if (outcome.kind === 'erased') setErased(true);
    else if (outcome.kind === 'none') cancelPinRequest();
  });

  return (
    <Card title={t('offline.unlock.title')} headingLevel={1} className="unlock-copies">
      {erased ? (
        <>
          <p role="alert">{t('offline.unlock.erased')}</p>
          <LinkButton href={pathFor('base')}>{t('offline.unlock.home')}</LinkButton>
        </>
      ) : (
        <>
          <p>{t('offline.unlock.lead')}</p>
          <p>{t('offline.unlock.limit', { attempts: MAX_PIN_ATTEMPTS })}</p>
          <div ref={areaRef}>
            <Form onSubmit={onSubmit} className="unlock-copies__form">
              <TextField
                name="pin"
                type="password"
                inputMode="numeric"
                autoComplete="off"
                maxLength={MAX_PIN_DIGITS}
                label={t('offline.unlock.pin')}
                value={values.pin}
                onChange={(value) => change('pin', value)}
                isRequired
                errorMessage={fieldErrors.pin && t(fieldErrors.pin, { attempts: attemptsLeft })}
                description={attemptsLeft === 1 ? t('offline.unlock.lastAttempt') : undefined}
              />
              <Button type="submit" isPending={isPending}>
                {t('offline.unlock.submit')}
              </Button>
            </Form>
          </div>
        </>
      )}
    </Card>
  );
}
