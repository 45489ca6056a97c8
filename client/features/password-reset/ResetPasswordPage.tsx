import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { ResetChannel } from '@common/validation/password-reset';
import { pathFor } from '../../app/routes';
import { Button } from '../../components/ui/Button';
import { Form } from '../../components/ui/Form';
import { Link } from '../../components/ui/Link';
import { Radio, RadioGroup } from '../../components/ui/RadioGroup';
import { TextField } from '../../components/ui/TextField';
import { isApiError } from '../../lib/api';
import { useLanguage, useT } from '../../lib/intl';
import { notifyError } from '../notifications/error-messages';
import { notify } from '../notifications/notification-store';
import { ResetCard } from './ResetCard';
import { requestResetLink, type FieldErrors, type ResetField } from './reset-api';

const FIELD_OF: Record<ResetChannel, ResetField> = { email: 'email', sms: 'phoneNumber' };

/** reset_password: a link to set a new password, sent by email or SMS (spec sections 2 and 5). */
export default function ResetPasswordPage() {
  const t = useT();
  const language = useLanguage();
  const [, navigate] = useLocation();
  const areaRef = useRef<HTMLDivElement>(null);
  const submitting = useRef(false);
  const [channel, setChannel] = useState<ResetChannel>('email');
  const [email, setEmail] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<ResetField>>({});
  const [refusals, setRefusals] = useState(0);
  const [isPending, setPending] = useState(false);

  const focusField = useEffectEvent(() => {
    const control = areaRef.current?.querySelector(`[name="${FIELD_OF[channel]}"]`);
    if (control instanceof HTMLElement) control.focus();
  });
  // After a refused attempt only: clearing an error while typing must not move focus.
  useEffect(() => {
    if (refusals > 0) focusField();
  }, [refusals]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting.current) return;
    submitting.current = true;
    setPending(true);
    try {
      const outcome = await requestResetLink({ channel, email, phoneNumber }, language);
      if (outcome.kind === 'done') {
        navigate(pathFor('reset_password_link_sent'));
      } else if (outcome.kind === 'invalid') {
        setFieldErrors(outcome.fieldErrors);
        setRefusals((count) => count + 1);
      } else if (isApiError(outcome.error, 'TOO_MANY_ATTEMPTS')) {
        notify({ kind: 'error', key: 'passwordReset.tooManyRequests' });
      } else {
        notifyError(outcome.error);
      }
    } finally {
      submitting.current = false;
      setPending(false);
    }
  };

  const edit = (field: ResetField, value: string) => {
    if (field === 'email') setEmail(value);
    else setPhoneNumber(value);
    setFieldErrors({});
  };
  const errorOf = (field: ResetField) => fieldErrors[field] && t(fieldErrors[field]);

  return (
    <ResetCard title={t('passwordReset.title')}>
      <p>{t('passwordReset.intro')}</p>
      <div ref={areaRef}>
        <Form onSubmit={onSubmit} className="reset-form">
          <RadioGroup
            label={t('passwordReset.channel.label')}
            value={channel}
            onChange={(value) => {
              setChannel(value as ResetChannel);
              setFieldErrors({});
            }}
            appearance="buttons"
          >
            <Radio value="email">{t('passwordReset.channel.email')}</Radio>
            <Radio value="sms">{t('passwordReset.channel.sms')}</Radio>
          </RadioGroup>
          {channel === 'email' ? (
            <TextField
              key="email"
              name="email"
              type="email"
              label={t('passwordReset.email.label')}
              value={email}
              onChange={(value) => edit('email', value)}
              isRequired
              autoComplete="email"
              spellCheck="false"
              errorMessage={errorOf('email')}
            />
          ) : (
            <TextField
              key="phoneNumber"
              name="phoneNumber"
              type="tel"
              label={t('passwordReset.phone.label')}
              description={t('passwordReset.phone.description')}
              value={phoneNumber}
              onChange={(value) => edit('phoneNumber', value)}
              isRequired
              autoComplete="tel"
              errorMessage={errorOf('phoneNumber')}
            />
          )}
          <Button type="submit" isPending={isPending} className="reset-form__submit">
            {isPending && <span className="spinner" aria-hidden="true" />}
            {t('passwordReset.submit')}
          </Button>
        </Form>
      </div>
      <p className="reset-card__links">
        <Link href={pathFor('login_portal')}>{t('passwordReset.backToLogin')}</Link>
      </p>
    </ResetCard>
  );
}
