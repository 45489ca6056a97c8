import type { ReactNode } from 'react';
import { Checkbox } from '../../components/ui/Checkbox';
import { Link } from '../../components/ui/Link';
import { pathFor } from '../../routes/paths';
import { useRichT, useT } from '../../lib/intl';
import type { FieldErrors } from '../../components/ui/use-field-form';

export type ConsentField = 'portalTerms' | 'policyTerms';
export type Consents = Record<ConsentField, boolean>;

type ConsentFieldsProps = {
  values: Consents;
  errors: FieldErrors<ConsentField>;
  onChange: (field: ConsentField, checked: boolean) => void;
};

/** The texts open in a new tab, so reading them never loses what was typed into the form. */
function NewTabLink({ href, children }: { href: string; children: ReactNode }) {
  const t = useT();
  return (
    <Link href={href} target="_blank" rel="noopener">
      {children}
      <span className="visually-hidden"> {t('login.opensInNewTab')}</span>
    </Link>
  );
}

/** The two consents both logins require (spec section 2). */
export function ConsentFields({ values, errors, onChange }: ConsentFieldsProps) {
  const t = useT();
  const richT = useRichT();
  return (
    <div className="login-consents">
      <Checkbox
        name="portalTerms"
        isRequired
        isSelected={values.portalTerms}
        onChange={(checked) => onChange('portalTerms', checked)}
        errorMessage={errors.portalTerms && t(errors.portalTerms)}
      >
        {richT('login.portalTerms', {
          link: (chunks) => <NewTabLink href={pathFor('portal_regulations')}>{chunks}</NewTabLink>,
        })}
      </Checkbox>
      <Checkbox
        name="policyTerms"
        isRequired
        isSelected={values.policyTerms}
        onChange={(checked) => onChange('policyTerms', checked)}
        errorMessage={errors.policyTerms && t(errors.policyTerms)}
      >
        {richT('login.policyTerms', {
          link: (chunks) => <NewTabLink href={pathFor('portal_consent')}>{chunks}</NewTabLink>,
        })}
      </Checkbox>
    </div>
  );
}
