import { startTransition, useEffect, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { isResetTokenShape } from '@common/validation/reset-token';
import { pathFor } from '../../routes/paths';
import { Button } from '../../components/ui/Button';
import { Form } from '../../components/ui/Form';
import { Link } from '../../components/ui/Link';
import { LinkButton } from '../../components/ui/LinkButton';
import { TextField } from '../../components/ui/TextField';
import { useFieldForm } from '../../components/ui/use-field-form';
import { resetCsrfToken } from '../../lib/api';
import { useT, type MessageKey } from '../../lib/intl';
import { loadProfile } from '../../stores/session-store';
import { errorMessageKey } from '../../stores/error-messages';
import { notify } from '../../stores/notification-store';
import { ResetCard } from './ResetCard';
import { setPasswordWithToken, tokenErrorKey, type NewPasswordField } from './reset-api';
import { earlyTokenVerdict, tokenCheckOf, type TokenCheck } from './token-check';

type LinkState = { kind: 'checking' } | { kind: 'usable' } | { kind: 'refused'; message: MessageKey };

function failureKey(error: unknown): MessageKey {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : null;
  return tokenErrorKey(error) ?? errorMessageKey(code);
}

function linkStateOf(check: TokenCheck): LinkState {
  return check.usable ? { kind: 'usable' } : { kind: 'refused', message: failureKey(check.error) };
}

/**
 * change_password_with_token (spec sections 2 and 4): only a UUID-shaped last segment is taken
 * for a token, and the link is verified before the form shows; a refused link gets the warning
 * screen with the way to a new link and to base.
 */
export default function ChangePasswordWithTokenPage() {
  const t = useT();
  const { token = '' } = useParams<{ token: string }>();
  const shapeOk = isResetTokenShape(token);
  // The server's verdict, for the token it was about: a new token in the path is checked anew.
  // Usually the check started while the app loaded (token-check.ts) has answered by the first
  // render, which then shows the form or the refusal at once.
  const [verdict, setVerdict] = useState<{ token: string; link: LinkState } | null>(() => {
    const early = earlyTokenVerdict(token);
    return early ? { token, link: linkStateOf(early) } : null;
  });
  const link: LinkState = !shapeOk
    ? { kind: 'refused', message: 'errors.INVALID_TOKEN' }
    : verdict?.token === token
      ? verdict.link
      : { kind: 'checking' };

  useEffect(() => {
    if (!shapeOk) return;
    const controller = new AbortController();
    void tokenCheckOf(token, controller.signal).then((check) => {
      if (controller.signal.aborted) return;
      // A transition, which React renders in short slices: the form's first render is long work
      // on a phone, and as one task it would keep the page from answering a tap (issue 16).
      startTransition(() => setVerdict((known) => (known?.token === token ? known : { token, link: linkStateOf(check) })));
    });
    return () => controller.abort();
  }, [token, shapeOk]);

  return (
    <ResetCard title={t(link.kind === 'refused' ? 'passwordReset.token.refusedTitle' : 'passwordReset.token.title')}>
      {link.kind === 'checking' ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> {t('passwordReset.token.checking')}
        </p>
      ) : link.kind === 'refused' ? (
        <RefusedLink message={link.message} />
      ) : (
        <NewPasswordForm token={token} />
      )}
    </ResetCard>
  );
}

function RefusedLink({ message }: { message: MessageKey }) {
  const t = useT();
  return (
    <>
      <p role="alert" className="reset-warning">
        {t(message)}
      </p>
      <p>{t('passwordReset.token.refusedHint')}</p>
      <p className="reset-card__links">
        <LinkButton href={pathFor('reset_password')}>{t('passwordReset.token.newLink')}</LinkButton>
        <Link href={pathFor('base')}>{t('nav.backToHome')}</Link>
      </p>
    </>
  );
}

const FIELDS: readonly NewPasswordField[] = ['password', 'confirm'];
const EMPTY: Record<NewPasswordField, string> = { password: '', confirm: '' };

function NewPasswordForm({ token }: { token: string }) {
  const t = useT();
  const [, navigate] = useLocation();
  const { areaRef, values, fieldErrors, isPending, change, refuse, submitWith } = useFieldForm(FIELDS, EMPTY);

  const onSubmit = submitWith(async () => {
    const outcome = await setPasswordWithToken(token, values);
    if (outcome.kind === 'done') {
      // Every session of the account ended on the server, this browser's too if it held one.
      resetCsrfToken();
      void loadProfile();
      navigate(pathFor('password_changed'), { replace: true });
    } else if (outcome.kind === 'invalid') {
      refuse(outcome.fieldErrors);
    } else {
      notify({ kind: 'error', key: failureKey(outcome.error) });
    }
  });

  const field = (name: NewPasswordField) => ({
    name,
    type: 'password' as const,
    value: values[name],
    onChange: (value: string) => change(name, value),
    isRequired: true,
    autoComplete: 'new-password',
    errorMessage: fieldErrors[name] && t(fieldErrors[name]),
  });

  return (
    <div ref={areaRef}>
      <p>{t('passwordReset.token.intro')}</p>
      <Form onSubmit={onSubmit} className="reset-form">
        <TextField {...field('password')} label={t('passwordReset.token.password')} description={t('passwordReset.token.passwordHint')} />
        <TextField {...field('confirm')} label={t('passwordReset.token.confirm')} />
        <Button type="submit" isPending={isPending} className="reset-form__submit">
          {isPending && <span className="spinner" aria-hidden="true" />}
          {t('passwordReset.token.submit')}
        </Button>
      </Form>
    </div>
  );
}
