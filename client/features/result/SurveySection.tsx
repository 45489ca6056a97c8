import { Card } from '../../components/ui/Card';
import { LinkButton } from '../../components/ui/LinkButton';
import { useT } from '../../lib/intl';

/** Invites to the satisfaction survey, or says it was sent. */
export function SurveySection({ submitted, surveyPath }: { submitted: boolean; surveyPath: string }) {
  const t = useT();
  return (
    <Card title={t('result.survey.title')} className="result-card">
      {submitted ? (
        <p>{t('result.survey.alreadySent')}</p>
      ) : (
        <>
          <p>{t('result.survey.invitation')}</p>
          <LinkButton href={surveyPath}>{t('result.survey.fill')}</LinkButton>
        </>
      )}
    </Card>
  );
}
