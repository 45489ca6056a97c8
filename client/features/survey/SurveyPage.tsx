import { useLocation, useParams } from 'wouter';
import type { SurveyAnswers } from '@common/validation/survey';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { isGuest } from '../../routes/decide-navigation';
import { pathFor } from '../../routes/paths';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { api, isApiError } from '../../lib/api';
import { useIntl, useT } from '../../lib/intl';
import { useSession } from '../../stores/session-store';
import { notify } from '../../stores/notification-store';
import { notifyError } from '../../stores/error-messages';
import { RATING_QUESTIONS } from './survey-questions';
import { SurveyForm } from './SurveyForm';
import { useSurveyStatus } from './use-survey-status';
import './survey.css';

function routeScreeningId(param: string | undefined): number | undefined {
  return param !== undefined && /^\d+$/.test(param) ? Number(param) : undefined;
}

/** survey and survey_of_screening: the satisfaction survey, new or sent (spec sections 2-5). */
export default function SurveyPage() {
  const t = useT();
  const intl = useIntl();
  useDocumentTitle(t('survey.title'));
  const [, navigate] = useLocation();
  const { user } = useSession();
  const id = routeScreeningId(useParams<{ id?: string }>().id);
  const [load, setLoad] = useSurveyStatus(id);

  // Spec section 2: after the survey the patient returns to her list, the guest to her result.
  const returnPath = user && !isGuest(user) ? pathFor('mammography_screenings') : pathFor('screening');
  const goBack = () => navigate(returnPath);

  async function send(answers: SurveyAnswers) {
    try {
      await api.post('/screening/survey', answers, { query: { id } });
      notify({ kind: 'success', key: 'survey.sent' });
      goBack();
    } catch (error) {
      if (isApiError(error, 'SURVEY_ALREADY_SUBMITTED')) {
        notify({ kind: 'info', key: 'survey.alreadySent' });
        setLoad({ kind: 'sent', submittedAt: new Date().toISOString() });
        return;
      }
      if (isApiError(error, 'NETWORK')) notifyError(error);
      else notify({ kind: 'error', key: 'survey.sendFailed' });
    }
  }

  return (
    <div className="survey-page">
      <h1 className="survey-page__title">{t('survey.title')}</h1>
      <p className="survey-page__lead">{t('survey.lead')}</p>
      {load.kind === 'loading' && <p role="status">{t('survey.loading')}</p>}
      {load.kind === 'failed' && (
        <>
          <p role="alert" className="survey-page__error">
            {t('survey.loadFailed')}
          </p>
          <Button variant="secondary" onPress={goBack}>
            {t('survey.goBack')}
          </Button>
        </>
      )}
      {load.kind === 'new' && (
        <Card className="survey-page__card">
          <SurveyForm onSubmit={send} onCancel={goBack} />
        </Card>
      )}
      {load.kind === 'sent' && (
        <Card className="survey-page__card">
          <p className="survey-page__sent" role="status">
            {t('survey.sentOn', { date: intl.formatDate(load.submittedAt, { dateStyle: 'long' }) })}
          </p>
          <ol className="survey-view">
            {RATING_QUESTIONS.map(({ field, question }) => (
              <li key={field}>{t(question)}</li>
            ))}
            <li>{t('survey.question.painMeasure')}</li>
            <li>{t('survey.question.longTermPain')}</li>
            <li>{t('survey.question.longTermPainLevel')}</li>
          </ol>
          <p className="survey-page__anonymous">{t('survey.anonymous')}</p>
          <Button variant="secondary" onPress={goBack}>
            {t('survey.goBack')}
          </Button>
        </Card>
      )}
    </div>
  );
}
