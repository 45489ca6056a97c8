import { pathFor } from '../../routes/paths';
import { COPY_REQUEST_FORM_PATH, PROVIDER } from '../../config/provider';
import { Link } from '../../components/ui/Link';
import { LinkButton } from '../../components/ui/LinkButton';
import { useIntl, useT } from '../../lib/intl';
import { TextPage } from '../../components/TextPage';

/** copy_of_medical_clerking: what is free in the portal and how to request a copy of the records. */
export default function CopyOfMedicalClerkingPage() {
  const t = useT();
  const intl = useIntl();
  const fee = intl.formatNumber(PROVIDER.copyFeePln, { style: 'currency', currency: 'PLN' });
  const values = {
    fee,
    bankAccount: PROVIDER.bankAccount,
    email: PROVIDER.email,
    providerName: PROVIDER.legalName,
    address: PROVIDER.address,
  };

  return (
    <TextPage title={t('copyInfo.title')} subtitle={t('copyInfo.lead')} backToHome>
      <section aria-labelledby="copy-result">
        <h2 id="copy-result">{t('copyInfo.result.title')}</h2>
        <p>{t('copyInfo.result.text')}</p>
        <p>
          <Link href={pathFor('login_portal')}>{t('home.patientPortal.title')}</Link>
          {' · '}
          <Link href={pathFor('login_result')}>{t('home.resultPortal.title')}</Link>
        </p>
      </section>
      <section aria-labelledby="copy-report">
        <h2 id="copy-report">{t('copyInfo.report.title')}</h2>
        <ol className="steps">
          <li>
            <p>{t('copyInfo.report.step1')}</p>
            <LinkButton href={COPY_REQUEST_FORM_PATH} variant="secondary" download>
              {t('copyInfo.downloadForm')}
            </LinkButton>
          </li>
          <li>
            <p>{t('copyInfo.report.step2', values)}</p>
          </li>
          <li>
            <p>{t('copyInfo.report.step3', values)}</p>
          </li>
        </ol>
        <dl className="details">
          <div>
            <dt>{t('copyInfo.amount')}</dt>
            <dd>{fee}</dd>
          </div>
          <div>
            <dt>{t('copyInfo.bankAccount')}</dt>
            <dd className="details__number">{PROVIDER.bankAccount}</dd>
          </div>
          <div>
            <dt>{t('copyInfo.transferTitle')}</dt>
            <dd>{t('copyInfo.transferTitleValue')}</dd>
          </div>
          <div>
            <dt>{t('copyInfo.email')}</dt>
            <dd>
              <Link href={`mailto:${PROVIDER.email}`}>{PROVIDER.email}</Link>
            </dd>
          </div>
          <div>
            <dt>{t('copyInfo.postalAddress')}</dt>
            <dd>
              {PROVIDER.legalName}
              <br />
              {PROVIDER.address}
            </dd>
          </div>
        </dl>
        <p>{t('copyInfo.report.processing')}</p>
      </section>
    </TextPage>
  );
}
