import { PROVIDER } from '../../config/provider';
import { useT, type MessageKey } from '../../lib/intl';
import { TextPage } from '../../components/TextPage';

/** Spec: the regulations are dated 7 November 2019. */
const REGULATIONS_DATE = new Date(2019, 10, 7);

type Section = { id: string; title: MessageKey; paragraphs: MessageKey[] };

const SECTIONS: Section[] = [
  { id: 'general', title: 'regulations.general.title', paragraphs: ['regulations.general.p1', 'regulations.general.p2'] },
  {
    id: 'definitions',
    title: 'regulations.definitions.title',
    paragraphs: ['regulations.definitions.p1', 'regulations.definitions.p2', 'regulations.definitions.p3'],
  },
  { id: 'services', title: 'regulations.services.title', paragraphs: ['regulations.services.p1', 'regulations.services.p2'] },
  {
    id: 'requirements',
    title: 'regulations.requirements.title',
    paragraphs: ['regulations.requirements.p1', 'regulations.requirements.p2'],
  },
  {
    id: 'access',
    title: 'regulations.access.title',
    paragraphs: ['regulations.access.p1', 'regulations.access.p2', 'regulations.access.p3'],
  },
  {
    id: 'complaints',
    title: 'regulations.complaints.title',
    paragraphs: ['regulations.complaints.p1', 'regulations.complaints.p2'],
  },
  { id: 'changes', title: 'regulations.changes.title', paragraphs: ['regulations.changes.p1', 'regulations.changes.p2'] },
  { id: 'final', title: 'regulations.final.title', paragraphs: ['regulations.final.p1'] },
];

/** portal_regulations: title, then sections each with a subtitle and paragraphs. */
export default function RegulationsPage() {
  const t = useT();
  const values = { providerName: PROVIDER.legalName, address: PROVIDER.address, email: PROVIDER.email };
  return (
    <TextPage title={t('regulations.title')} subtitle={t('regulations.effectiveDate', { date: REGULATIONS_DATE })} backToHome>
      {SECTIONS.map((section) => (
        <section key={section.id} aria-labelledby={`regulations-${section.id}`}>
          <h2 id={`regulations-${section.id}`}>{t(section.title)}</h2>
          {section.paragraphs.map((key) => (
            <p key={key}>{t(key, values)}</p>
          ))}
        </section>
      ))}
    </TextPage>
  );
}
