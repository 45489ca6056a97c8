import { useState } from 'react';
import { useLocation } from 'wouter';
import type { ResetChannel } from '@common/validation/password-reset';
import { pathFor } from '../../routes/paths';
import { Button } from '../../components/ui/Button';
import { Form } from '../../components/ui/Form';
import { Link } from '../../components/ui/Link';
import { Radio, RadioGroup } from '../../components/ui/RadioGroup';
import { TextField } from '../../components/ui/TextField';
import { useFieldForm } from '../../components/ui/use-field-form';
import { isApiError } from '../../lib/api';
import { useLanguage, useT } from '../../lib/intl';
import { notifyError } from '../../stores/error-messages';
import { notify } from '../../stores/notification-store';
import { ResetCard } from './ResetCard';
import { requestResetLink, type ResetField } from './reset-api';

const FIELDS: readonly ResetField[] = ['email', 'phoneNumber'];
const EMPTY: Record<ResetField, string> = { email: '', phoneNumber: '' };

/** reset_password: a link to set a new password, sent by email or SMS (spec sections 2 and 5). */
export default function ResetPasswordPage() {
  const t = useT();
  const language = useLanguage();
  const [, navigate] = useLocation();
  const [channel, setChannel] = useState<ResetChannel>('email');
  const { areaRef, values, fieldErrors, isPending, change, refuse, clearErrors, submitWith } = useFieldForm(FIELDS, EMPTY);

  const onSubmit = submitWith(async () => {
    const outcome = await requestResetLink({ channel, ...values }, language);
    if (outcome.kind === 'done') {
      navigate(pathFor('reset_password_link_sent'));
    } else if (outcome.kind === 'invalid') {
      refuse(outcome.fieldErrors);
    } else if (isApiError(outcome.error, 'TOO_MANY_ATTEMPTS')) {
      notify({ kind: 'error', key: 'passwordReset.tooManyRequests' });
    } else {
      notifyError(outcome.error);
    }
  });

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
              clearErrors();
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
              value={values.email}
              onChange={(value) => change('email', value)}
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
              value={values.phoneNumber}
              onChange={(value) => change('phoneNumber', value)}
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
