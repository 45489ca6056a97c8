import { PROVIDER } from '../../config/provider';
import { Link } from '../../components/ui/Link';
import { useRichT, useT } from '../../lib/intl';
import type { ResultExplanation, ResultTone } from '../../lib/screening-result';
import { pathFor } from '../../routes/paths';
import { useSession } from '../../stores/session-store';

/** Shapes, not colours, tell the tones apart (with the frame and the heading). */
const TONE_ICONS: Readonly<Record<ResultTone, string>> = { routine: '✓', followUp: 'i', attention: '!' };

export type ResultExplanationNoteProps = {
  explanation: ResultExplanation;
  /** The heading's id, so the result in the table can name it as its description. */
  titleId: string;
};

/**
 * The result in plain words next to its value: what it means, what to do next, and for further
 * tests where the referral is and how to book them.
 */
export function ResultExplanationNote({ explanation, titleId }: ResultExplanationNoteProps) {
  const t = useT();
  const richT = useRichT();
  const { user } = useSession();
  // A result-portal guest has no referrals page: her referral is only in the documents below.
  const isPatient = user !== null && !user.guest;
  const { tone } = explanation;

  return (
    <section className={`result-explanation result-explanation--${tone}`} aria-labelledby={titleId} data-tone={tone}>
      <h3 id={titleId} className="result-explanation__title">
        <span className="result-explanation__icon" aria-hidden="true">
          {TONE_ICONS[tone]}
        </span>
        {t(explanation.title)}
      </h3>
      <p>{t(explanation.meaning)}</p>
      <p>{t(explanation.next)}</p>
      {explanation.furtherTests && (
        <>
          <p>
            {isPatient
              ? richT('result.explanation.referral.patient', { link: (chunks) => <Link href={pathFor('referral')}>{chunks}</Link> })
              : t('result.explanation.referral.guest')}
          </p>
          <p>{t('result.explanation.booking')}</p>
          <p>
            {richT('result.explanation.questions', {
              phone: (
                <a className="text-link" href={`tel:${PROVIDER.phone.replace(/\s/g, '')}`}>
                  {PROVIDER.phone}
                </a>
              ),
              link: (chunks) => <Link href={pathFor('contact')}>{chunks}</Link>,
            })}
          </p>
        </>
      )}
    </section>
  );
}
