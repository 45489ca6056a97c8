import { useState } from 'react';
import { formatBirthDateInput, resultLoginSchema, ACCESS_CODE_LENGTH } from '@common/validation/auth';
import { CodeField } from '../../components/ui/CodeField';
import { Form } from '../../components/ui/Form';
import { TextField } from '../../components/ui/TextField';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/intl';
import { ConsentFields, type ConsentField, type Consents } from './ConsentFields';
import { CookiesBlockedNotice } from './CookiesBlockedNotice';
import { FormAlert } from './FormAlert';
import { LoginLayout } from './LoginLayout';
import { LoginSubmitButton } from './LoginSubmitButton';
import { fieldErrorsFromZod } from './login-validation';
import { useLoginForm, type Prepared } from './use-login-form';

const FIELDS = ['accessCode', 'birthAt', 'portalTerms', 'policyTerms'] as const;
type Field = (typeof FIELDS)[number];

/** Birth date as YYYY-MM-DD: four, two and two digits with the two dashes. */
const BIRTH_DATE_LENGTH = 10;

/** login_result: the result portal, entered with the screening's access code and the birth date. */
export default function ResultLoginPage() {
  const t = useT();
  useDocumentTitle(t('login.result.title'));
  const [accessCode, setAccessCode] = useState('');
  const [birthAt, setBirthAt] = useState('');
  const [consents, setConsents] = useState<Consents>({ portalTerms: false, policyTerms: false });

  const prepare = async (): Promise<Prepared<Field>> => {
    const parsed = resultLoginSchema.safeParse({ accessCode, birthAt, ...consents });
    return parsed.success ? { ok: true, body: parsed.data } : { ok: false, fieldErrors: fieldErrorsFromZod(parsed.error, FIELDS) };
  };
  const { areaRef, alertRef, isPending, fieldErrors, failure, attempt, clearFieldError, onSubmit } = useLoginForm({
    variant: 'result',
    fields: FIELDS,
    prepare,
  });
  const errorOf = (field: Field) => fieldErrors[field] && t(fieldErrors[field]);

  const changeConsent = (field: ConsentField, checked: boolean) => {
    setConsents((current) => ({ ...current, [field]: checked }));
    clearFieldError(field);
  };

  return (
    <LoginLayout title={t('login.result.title')} intro={t('login.result.intro')}>
      <div ref={areaRef} className="login-form-area">
        <CookiesBlockedNotice />
        <FormAlert ref={alertRef} message={failure} announcement={attempt} />
        <Form onSubmit={onSubmit} className="login-form">
          <CodeField
            name="accessCode"
            label={t('login.accessCode.label')}
            description={t('login.accessCode.description')}
            value={accessCode}
            onChange={(value) => {
              setAccessCode(value);
              clearFieldError('accessCode');
            }}
            isRequired
            maxLength={ACCESS_CODE_LENGTH}
            errorMessage={errorOf('accessCode')}
          />
          <TextField
            name="birthAt"
            label={t('login.birthAt.label')}
            description={t('login.birthAt.description')}
            placeholder={t('login.birthAt.placeholder')}
            value={birthAt}
            onChange={(value) => {
              setBirthAt(formatBirthDateInput(value));
              clearFieldError('birthAt');
            }}
            isRequired
            inputMode="numeric"
            maxLength={BIRTH_DATE_LENGTH}
            autoComplete="off"
            errorMessage={errorOf('birthAt')}
          />
          <ConsentFields values={consents} errors={fieldErrors} onChange={changeConsent} />
          <LoginSubmitButton isPending={isPending} />
        </Form>
      </div>
    </LoginLayout>
  );
}
