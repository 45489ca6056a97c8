import { pathFor } from '../../routes/paths';
import { PROVIDER } from '../../config/provider';
import { Disclosure, DisclosureGroup } from '../../components/ui/Disclosure';
import { Link } from '../../components/ui/Link';
import { useT, type MessageKey } from '../../lib/intl';
import { TextPage } from '../../components/TextPage';

type Question = { id: string; question: MessageKey; answer: MessageKey };

const QUESTIONS: Question[] = [
  { id: 'access-code', question: 'faq.accessCode.question', answer: 'faq.accessCode.answer' },
  { id: 'access-code-where', question: 'faq.accessCodeWhere.question', answer: 'faq.accessCodeWhere.answer' },
  { id: 'login', question: 'faq.login.question', answer: 'faq.login.answer' },
  { id: 'description-time', question: 'faq.descriptionTime.question', answer: 'faq.descriptionTime.answer' },
  { id: 'bi-rads', question: 'faq.biRads.question', answer: 'faq.biRads.answer' },
  { id: 'sensitivity', question: 'faq.sensitivity.question', answer: 'faq.sensitivity.answer' },
  { id: 'copies', question: 'faq.copies.question', answer: 'faq.copies.answer' },
  { id: 'iso', question: 'faq.iso.question', answer: 'faq.iso.answer' },
  { id: 'portals', question: 'faq.portals.question', answer: 'faq.portals.answer' },
  { id: 'contact', question: 'faq.contact.question', answer: 'faq.contact.answer' },
];

/** The result scale of spec section 3, in the order a patient reads it. */
const BI_RADS_SCALE: Array<{ value: string; label: MessageKey }> = [
  { value: '1', label: 'birads.1' },
  { value: '2', label: 'birads.2' },
  { value: '3', label: 'birads.3' },
  { value: '4', label: 'birads.4' },
  { value: '5', label: 'birads.5' },
  { value: '-1', label: 'birads.needsMoreChecks' },
];

function Extra({ id }: { id: string }) {
  const t = useT();
  if (id === 'bi-rads') {
    return (
      <>
        <dl className="scale-list">
          {BI_RADS_SCALE.map((item) => (
            <div key={item.value}>
              <dt>{item.value}</dt>
              <dd>{t(item.label)}</dd>
            </div>
          ))}
        </dl>
        <p>{t('faq.biRads.note')}</p>
      </>
    );
  }
  if (id === 'copies') {
    return (
      <p>
        <Link href={pathFor('copy_of_medical_clerking')}>{t('home.copyOfClerking.title')}</Link>
      </p>
    );
  }
  if (id === 'contact') {
    return (
      <p>
        <Link href={pathFor('contact')}>{t('faq.contact.formLink')}</Link>
      </p>
    );
  }
  return null;
}

export default function FaqPage() {
  const t = useT();
  return (
    <TextPage title={t('faq.title')} subtitle={t('faq.lead')} backToHome>
      <DisclosureGroup>
        {QUESTIONS.map((item) => (
          <Disclosure key={item.id} id={item.id} title={t(item.question)} headingLevel={2}>
            <p>{t(item.answer, { email: PROVIDER.email })}</p>
            <Extra id={item.id} />
          </Disclosure>
        ))}
      </DisclosureGroup>
    </TextPage>
  );
}
