import { useState } from 'react';
import { portalLoginSchema } from '@common/validation/auth';
import { Form } from '../../components/ui/Form';
import { Link } from '../../components/ui/Link';
import { TextField } from '../../components/ui/TextField';
import { pathFor } from '../../routes/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/intl';
import { sha256Hex } from '../../lib/sha256';
import { ConsentFields, type ConsentField, type Consents } from './ConsentFields';
import { CookiesBlockedNotice } from './CookiesBlockedNotice';
import { FormAlert } from './FormAlert';
import { LoginLayout } from './LoginLayout';
import { LoginSubmitButton } from './LoginSubmitButton';
import { fieldErrorsFromZod } from './login-validation';
import { useLoginForm, type Prepared } from './use-login-form';

const FIELDS = ['login', 'password', 'portalTerms', 'policyTerms'] as const;
type Field = (typeof FIELDS)[number];

/** login_portal: the patient portal, entered with the login (email) and password. */
export default function PortalLoginPage() {
  const t = useT();
  // Its heading is the portal's name, which every title ends with: the tab says what happens here.
  useDocumentTitle(t('login.portal.documentTitle'));
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [consents, setConsents] = useState<Consents>({ portalTerms: false, policyTerms: false });

  const prepare = async (): Promise<Prepared<Field>> => {
    // An empty password stays empty, so the schema reports it missing instead of hashing ''.
    const hashed = password ? await sha256Hex(password) : '';
    const parsed = portalLoginSchema.safeParse({ login, password: hashed, ...consents });
    return parsed.success ? { ok: true, body: parsed.data } : { ok: false, fieldErrors: fieldErrorsFromZod(parsed.error, FIELDS) };
  };
  const { areaRef, alertRef, isPending, fieldErrors, failure, attempt, clearFieldError, onSubmit } = useLoginForm({
    variant: 'portal',
    fields: FIELDS,
    prepare,
  });
  const errorOf = (field: Field) => fieldErrors[field] && t(fieldErrors[field]);

  const changeConsent = (field: ConsentField, checked: boolean) => {
    setConsents((current) => ({ ...current, [field]: checked }));
    clearFieldError(field);
  };

  return (
    <LoginLayout title={t('login.portal.title')} intro={t('login.portal.intro')}>
      <div ref={areaRef} className="login-form-area">
        <CookiesBlockedNotice />
        <FormAlert ref={alertRef} message={failure} announcement={attempt} />
        <Form onSubmit={onSubmit} className="login-form">
          <TextField
            name="login"
            type="email"
            label={t('login.login.label')}
            value={login}
            onChange={(value) => {
              setLogin(value);
              clearFieldError('login');
            }}
            isRequired
            autoComplete="username"
            spellCheck="false"
            errorMessage={errorOf('login')}
          />
          <TextField
            name="password"
            type="password"
            label={t('login.password.label')}
            value={password}
            onChange={(value) => {
              setPassword(value);
              clearFieldError('password');
            }}
            isRequired
            autoComplete="current-password"
            errorMessage={errorOf('password')}
          />
          <p className="login-form__forgot">
            <Link href={pathFor('reset_password')}>{t('login.forgotPassword')}</Link>
          </p>
          <ConsentFields values={consents} errors={fieldErrors} onChange={changeConsent} />
          <LoginSubmitButton isPending={isPending} />
        </Form>
      </div>
    </LoginLayout>
  );
}
