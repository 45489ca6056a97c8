import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { Checkbox } from '../../components/ui/Checkbox';
import { Form } from '../../components/ui/Form';
import { Link } from '../../components/ui/Link';
import { TextField } from '../../components/ui/TextField';
import { pathFor } from '../../routes/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useRichT, useT } from '../../lib/intl';
import { ContentField } from './ContentField';
import { PhoneField } from './PhoneField';
import { useContactForm } from './use-contact-form';
import './contact.css';

/** contact: a message to the provider, answered within 7 days (spec sections 2, 5 and 8). */
export default function ContactPage() {
  const t = useT();
  const richT = useRichT();
  useDocumentTitle(t('contact.title'));
  const { areaRef, values, isPending, errorOf, change, onBlur, onSubmit } = useContactForm();
  const messageOf = (field: Parameters<typeof errorOf>[0]) => {
    const key = errorOf(field);
    return key && t(key);
  };

  return (
    <Card title={t('contact.title')} headingLevel={1} className="contact-card">
      <p className="contact-card__intro">{t('contact.intro')}</p>
      <div ref={areaRef}>
        <Form onSubmit={onSubmit} className="contact-form">
          <div className="contact-form__names">
            <TextField
              name="firstName"
              label={t('contact.firstName.label')}
              value={values.firstName}
              onChange={(value) => change('firstName', value)}
              onBlur={() => onBlur('firstName')}
              isRequired
              autoComplete="given-name"
              errorMessage={messageOf('firstName')}
            />
            <TextField
              name="lastName"
              label={t('contact.lastName.label')}
              value={values.lastName}
              onChange={(value) => change('lastName', value)}
              onBlur={() => onBlur('lastName')}
              isRequired
              autoComplete="family-name"
              errorMessage={messageOf('lastName')}
            />
          </div>
          <TextField
            name="email"
            type="email"
            label={t('contact.email.label')}
            description={t('contact.email.description')}
            value={values.email}
            onChange={(value) => change('email', value)}
            onBlur={() => onBlur('email')}
            autoComplete="email"
            spellCheck="false"
            errorMessage={messageOf('email')}
          />
          <PhoneField
            value={values.phoneNumber}
            onChange={(value) => change('phoneNumber', value)}
            onBlur={() => onBlur('phoneNumber')}
            error={errorOf('phoneNumber')}
          />
          <ContentField
            value={values.content}
            onChange={(value) => change('content', value)}
            onBlur={() => onBlur('content')}
            error={errorOf('content')}
          />
          <Checkbox
            name="consent"
            isRequired
            isSelected={values.consent}
            onChange={(checked) => change('consent', checked)}
            errorMessage={messageOf('consent')}
          >
            {richT('contact.consent', {
              // A new tab, so reading the policy never loses what was typed into the form.
              link: (chunks) => (
                <Link href={pathFor('portal_consent')} target="_blank" rel="noopener">
                  {chunks}
                  <span className="visually-hidden"> {t('login.opensInNewTab')}</span>
                </Link>
              ),
            })}
          </Checkbox>
          <Button type="submit" isPending={isPending} className="contact-form__submit">
            {isPending && <span className="spinner" aria-hidden="true" />}
            {t('contact.submit')}
          </Button>
        </Form>
      </div>
    </Card>
  );
}
