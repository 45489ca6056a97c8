import { PROVIDER } from '../../config/provider';
import { useT, type MessageKey } from '../../lib/intl';
import { TextPage } from '../../components/TextPage';

const PARAGRAPHS: MessageKey[] = [
  'privacy.controller',
  'privacy.dpo',
  'privacy.purposes',
  'privacy.scope',
  'privacy.recipients',
  'privacy.retention',
  'privacy.rights',
  'privacy.complaint',
  'privacy.voluntary',
];

const FOOTER_PARAGRAPHS: MessageKey[] = ['privacy.footer.legalBasis', 'privacy.footer.fictional'];

/** portal_consent: the GDPR information clause linked from both login screens. */
export default function ConsentPage() {
  const t = useT();
  const values = {
    providerName: PROVIDER.legalName,
    address: PROVIDER.address,
  };
  return (
    <TextPage title={t('privacy.title')} subtitle={t('privacy.subtitle')} backToHome>
      {PARAGRAPHS.map((key) => (
        <p key={key}>
          {t(key, { ...values, email: key === 'privacy.dpo' ? PROVIDER.dataProtectionOfficerEmail : PROVIDER.email })}
        </p>
      ))}
      <footer className="text-page__footer">
        {FOOTER_PARAGRAPHS.map((key) => (
          <p key={key}>{t(key)}</p>
        ))}
      </footer>
    </TextPage>
  );
}
