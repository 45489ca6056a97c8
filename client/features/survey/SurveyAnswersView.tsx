import type { SurveyAnswers } from '@common/validation/survey';
import { useT } from '../../lib/intl';
import { answeredQuestions } from './survey-questions';

/** View mode (spec section 2): the eight questions with her answers, read-only. */
export function SurveyAnswersView({ answers }: { answers: SurveyAnswers | null }) {
  const t = useT();
  return (
    <>
      <ol className="survey-view">
        {answeredQuestions(answers).map(({ field, question, answer }) => (
          <li key={field} className="survey-view__item">
            <p className="survey-view__question">{t(question)}</p>
            {answer && <p className="survey-view__answer">{t('survey.view.answer', { answer: t(answer) })}</p>}
          </li>
        ))}
      </ol>
      {!answers && <p className="survey-page__anonymous">{t('survey.anonymous')}</p>}
    </>
  );
}
