import { useLocation } from 'wouter';
import { userHomePath } from '../../routes/decide-navigation';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { Form } from '../../components/ui/Form';
import { TextField } from '../../components/ui/TextField';
import { useFieldForm } from '../../components/ui/use-field-form';
import { useT } from '../../lib/intl';
import { loadProfile } from '../../stores/session-store';
import { notify } from '../../stores/notification-store';
import { notifyError } from '../../stores/error-messages';
import { changePassword, PASSWORD_FIELDS, type PasswordField } from './password-change';

type Props = {
  /** The account's login, so the new password cannot simply repeat it. */
  login: string | undefined;
  /** The guard holds her on this page until the change; afterwards she goes to her start page. */
  heldForPasswordChange: boolean;
};

const EMPTY: Record<PasswordField, string> = { oldPassword: '', newPassword: '', confirm: '' };

/** Old, new and confirmation (spec section 5), checked in the browser before anything is hashed. */
export function PasswordChangeForm({ login, heldForPasswordChange }: Props) {
  const t = useT();
  const [, navigate] = useLocation();
  const { areaRef, values, fieldErrors, isPending, change, refuse, clear, submitWith } = useFieldForm(PASSWORD_FIELDS, EMPTY);

  const onSubmit = submitWith(async () => {
    const outcome = await changePassword(values, login);
    if (outcome.kind === 'invalid') {
      refuse(outcome.fieldErrors);
      return;
    }
    if (outcome.kind === 'failed') {
      notifyError(outcome.error);
      return;
    }
    clear();
    notify({ kind: 'success', key: 'profile.password.changed' });
    // The server released the session already; the fresh profile releases the guard too.
    const user = await loadProfile();
    if (heldForPasswordChange && user) navigate(userHomePath(user));
  });

  const field = (name: PasswordField) => ({
    name,
    type: 'password' as const,
    value: values[name],
    onChange: (value: string) => change(name, value),
    isRequired: true,
    errorMessage: fieldErrors[name] && t(fieldErrors[name]),
  });

  return (
    <Card title={t('profile.password.title')} className="profile-card">
      <div ref={areaRef}>
        <Form onSubmit={onSubmit} className="password-change-form">
          {/* Lets a password manager file the new password under the right account. */}
          {login && <input type="email" name="username" autoComplete="username" value={login} readOnly hidden />}
          <TextField {...field('oldPassword')} label={t('profile.password.old')} autoComplete="current-password" />
          <TextField
            {...field('newPassword')}
            label={t('profile.password.new')}
            description={t('profile.password.newHint')}
            autoComplete="new-password"
          />
          <TextField {...field('confirm')} label={t('profile.password.confirm')} autoComplete="new-password" />
          <Button type="submit" isPending={isPending} className="password-change-form__submit">
            {isPending && <span className="spinner" aria-hidden="true" />}
            {t('profile.password.submit')}
          </Button>
        </Form>
      </div>
    </Card>
  );
}
