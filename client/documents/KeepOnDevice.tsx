import { useEffect, useState } from 'react';
import { Button } from '../components/ui/Button';
import { Dialog } from '../components/ui/Dialog';
import { Form } from '../components/ui/Form';
import { Switch } from '../components/ui/Switch';
import { TextField } from '../components/ui/TextField';
import { useFieldForm } from '../components/ui/use-field-form';
import type { OwnerKey } from '../lib/device-db';
import { useT } from '../lib/intl';
import './documents.css';
import { keepsCopies, onKeptChange, startKeeping, stopKeeping } from './offline-copies';
import { checkNewPin, MAX_PIN_DIGITS, type NewPinField } from './pin-rules';

/** Whether `ownerKey` keeps copies on this device; null until the device answered. */
export function useKeepsCopies(ownerKey: OwnerKey): boolean | null {
  const [known, setKnown] = useState<{ ownerKey: OwnerKey; keeps: boolean } | null>(null);
  useEffect(() => {
    let current = true;
    const read = () =>
      void keepsCopies(ownerKey).then(
        (keeps) => current && setKnown({ ownerKey, keeps }),
        () => current && setKnown({ ownerKey, keeps: false }),
      );
    read();
    const stop = onKeptChange(read);
    return () => {
      current = false;
      stop();
    };
  }, [ownerKey]);
  return known?.ownerKey === ownerKey ? known.keeps : null;
}

/**
 * "Keep my results on this device for offline reading" (issue 16): off until she switches it on,
 * which asks for a device PIN; off again deletes everything of hers on the device. Nothing of hers
 * is kept on the device while it is off.
 */
export function KeepOnDevice({ ownerKey }: { ownerKey: OwnerKey }) {
  const t = useT();
  const keeps = useKeepsCopies(ownerKey);
  const [asking, setAsking] = useState<'pin' | 'stop' | null>(null);
  return (
    <div className="keep-on-device">
      <Switch
        // Her choice takes effect only once the PIN is set (or the deletion confirmed).
        isSelected={keeps === true}
        isDisabled={keeps === null}
        onChange={(on) => setAsking(on ? 'pin' : 'stop')}
        description={t('offline.keep.description')}
      >
        {t('offline.keep.label')}
      </Switch>
      <NewPinDialog ownerKey={ownerKey} isOpen={asking === 'pin'} onClose={() => setAsking(null)} />
      <StopKeepingDialog ownerKey={ownerKey} isOpen={asking === 'stop'} onClose={() => setAsking(null)} />
    </div>
  );
}

const PIN_FIELDS: readonly NewPinField[] = ['pin', 'pinAgain'];
const EMPTY: Record<NewPinField, string> = { pin: '', pinAgain: '' };

/** The device PIN, typed twice, checked before anything is stored. */
function NewPinDialog({ ownerKey, isOpen, onClose }: { ownerKey: OwnerKey; isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const { areaRef, values, fieldErrors, isPending, change, refuse, clear, submitWith } = useFieldForm(PIN_FIELDS, EMPTY);
  const [failed, setFailed] = useState(false);

  const close = () => {
    clear();
    setFailed(false);
    onClose();
  };

  const onSubmit = submitWith(async () => {
    setFailed(false);
    const errors = checkNewPin(values.pin, values.pinAgain);
    if (errors.pin || errors.pinAgain) {
      refuse(errors);
      return;
    }
    try {
      await startKeeping(ownerKey, values.pin);
      close();
    } catch {
      // Device storage refused or full: nothing was kept, she is told so.
      setFailed(true);
    }
  });

  const field = (name: NewPinField) => ({
    name,
    type: 'password' as const,
    inputMode: 'numeric' as const,
    // A password manager would keep the PIN on this very device, beside the copies it guards.
    autoComplete: 'off',
    maxLength: MAX_PIN_DIGITS,
    value: values[name],
    onChange: (value: string) => change(name, value),
    isRequired: true,
    errorMessage: fieldErrors[name] && t(fieldErrors[name]),
  });

  return (
    <Dialog title={t('offline.keep.pinTitle')} isOpen={isOpen} onOpenChange={(open) => !open && close()}>
      <p>{t('offline.keep.pinLead')}</p>
      <p>{t('offline.keep.sharedDevice')}</p>
      <div ref={areaRef}>
        <Form onSubmit={onSubmit} className="keep-on-device__form">
          <TextField {...field('pin')} label={t('offline.keep.pin')} description={t('offline.keep.pinHint')} />
          <TextField {...field('pinAgain')} label={t('offline.keep.pinAgain')} />
          {failed && <p role="alert">{t('offline.keep.failed')}</p>}
          <div className="dialog__actions">
            <Button variant="secondary" onPress={close}>
              {t('offline.keep.cancel')}
            </Button>
            <Button type="submit" isPending={isPending}>
              {t('offline.keep.confirm')}
            </Button>
          </div>
        </Form>
      </div>
    </Dialog>
  );
}

/** Switching off deletes everything of hers on the device, with her keys: asked first. */
function StopKeepingDialog({ ownerKey, isOpen, onClose }: { ownerKey: OwnerKey; isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function stop() {
    setPending(true);
    setFailed(false);
    try {
      await stopKeeping(ownerKey);
      onClose();
    } catch {
      setFailed(true);
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog title={t('offline.keep.stopTitle')} isOpen={isOpen} onOpenChange={(open) => !open && onClose()} role="alertdialog">
      <p>{t('offline.keep.stopText')}</p>
      {failed && <p role="alert">{t('offline.keep.stopFailed')}</p>}
      <div className="dialog__actions">
        <Button variant="secondary" onPress={onClose}>
          {t('offline.keep.cancel')}
        </Button>
        <Button variant="danger" onPress={() => void stop()} isPending={pending}>
          {t('offline.keep.stopConfirm')}
        </Button>
      </div>
    </Dialog>
  );
}
