import { useLocation, useParams } from 'wouter';
import type { SurveyAnswers } from '@common/validation/survey';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { isGuest } from '../../routes/decide-navigation';
import { pathFor } from '../../routes/paths';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { api, isApiError, type ApiIssue } from '../../lib/api';
import { useIntl, useT, type MessageKey } from '../../lib/intl';
import { useSession } from '../../stores/session-store';
import { notify } from '../../stores/notification-store';
import { notifyError } from '../../stores/error-messages';
import { QUESTION_NUMBERS, type SurveyField } from './survey-questions';
import { SurveyAnswersView } from './SurveyAnswersView';
import { SurveyForm, type SurveyProblem } from './SurveyForm';
import { useSurveyStatus } from './use-survey-status';
import './survey.css';
import { PageTitle } from '../../components/ui/PageTitle';

function routeScreeningId(param: string | undefined): number | undefined {
  return param !== undefined && /^\d+$/.test(param) ? Number(param) : undefined;
}

/** The server's messages of a refused survey (docs/api.md, "Survey"); any other shows the generic failure. */
const SERVER_MESSAGES: ReadonlySet<string> = new Set<MessageKey>([
  'validation.survey.rating.invalid',
  'validation.survey.longTermPain.required',
  'validation.survey.longTermPainLevel.required',
  'validation.survey.longTermPainLevel.notAsked',
]);

function problemsOf(issues: readonly ApiIssue[]): SurveyProblem[] {
  const problems = issues.map((issue) => ({
    field: issue.path in QUESTION_NUMBERS ? (issue.path as SurveyField) : null,
    message: (SERVER_MESSAGES.has(issue.message) ? issue.message : 'survey.sendFailed') as MessageKey,
  }));
  return problems.length > 0 ? problems : [{ field: null, message: 'survey.sendFailed' }];
}

/** survey and survey_of_screening: the satisfaction survey, new or sent (spec sections 2-5). */
export default function SurveyPage() {
  const t = useT();
  const intl = useIntl();
  useDocumentTitle(t('survey.title'));
  const [, navigate] = useLocation();
  const { user } = useSession();
  const id = routeScreeningId(useParams<{ id?: string }>().id);
  const { load, reload } = useSurveyStatus(id);

  // Spec section 2: after the survey the patient returns to her list, the guest to her result.
  const returnPath = user && !isGuest(user) ? pathFor('mammography_screenings') : pathFor('screening');
  const goBack = () => navigate(returnPath);

  async function send(answers: SurveyAnswers): Promise<SurveyProblem[] | void> {
    try {
      await api.post('/screening/survey', answers, { query: { id } });
      notify({ kind: 'success', key: 'survey.sent' });
      goBack();
    } catch (error) {
      if (isApiError(error, 'SURVEY_ALREADY_SUBMITTED')) {
        notify({ kind: 'info', key: 'survey.alreadySent' });
        reload();
        return;
      }
      // Refused answers are shown at their questions, like the form's own checks.
      if (isApiError(error, 'VALIDATION')) return problemsOf(error.issues);
      if (isApiError(error, 'NETWORK')) notifyError(error);
      else notify({ kind: 'error', key: 'survey.sendFailed' });
    }
  }

  return (
    <div className="survey-page">
      <PageTitle className="survey-page__title">{t('survey.title')}</PageTitle>
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
          <SurveyAnswersView answers={load.answers} />
          <Button variant="secondary" onPress={goBack}>
            {t('survey.goBack')}
          </Button>
        </Card>
      )}
    </div>
  );
}
