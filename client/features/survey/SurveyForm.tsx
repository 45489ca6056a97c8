import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { useFocusAfterRefusal } from '../../components/ui/form-submission';
import { Form } from '../../components/ui/Form';
import { Radio, RadioGroup } from '../../components/ui/RadioGroup';
import { Slider } from '../../components/ui/Slider';
import { useT, type MessageKey } from '../../lib/intl';
import {
  INITIAL_DRAFT,
  isPainLevelAsked,
  PAIN_LABELS,
  PAIN_SCALE_REVERSED,
  QUALITY_LABELS,
  QUESTION_NUMBERS,
  RATING_QUESTIONS,
  toSurveyAnswers,
  type SurveyDraft,
  type SurveyField,
} from './survey-questions';
import type { SurveyAnswers } from '@common/validation/survey';

/** Why the survey was not sent: the question it is about (null: the whole survey) and what to do. */
export type SurveyProblem = { field: SurveyField | null; message: MessageKey };

export type SurveyFormProps = {
  /** Sends the answers; resolves to the problems the server found, if it refused them. */
  onSubmit: (answers: SurveyAnswers) => Promise<SurveyProblem[] | void>;
  onCancel: () => void;
};

/** The gate's radios carry this name, so focus can find the question after a refused send. */
const GATE_NAME: SurveyField = 'longTermPain';

/** The new survey: five ratings, the pain of the examination, the long-term pain gate and the level it unlocks. */
export function SurveyForm({ onSubmit, onCancel }: SurveyFormProps) {
  const t = useT();
  const [draft, setDraft] = useState<SurveyDraft>(INITIAL_DRAFT);
  const [problems, setProblems] = useState<SurveyProblem[]>([]);
  const [sending, setSending] = useState(false);
  const areaRef = useRef<HTMLOListElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  // The first question with a problem gets the focus (which scrolls it into view); with none
  // that focus can reach, the alert does.
  const { refusals, noteRefusal } = useFocusAfterRefusal(
    areaRef,
    () => problems.find((problem) => problem.field === GATE_NAME)?.field ?? undefined,
    () => alertRef.current?.focus(),
  );
  const painAsked = isPainLevelAsked(draft);
  const gateMessage = problems.find((problem) => problem.field === GATE_NAME)?.message;

  const refuse = (found: SurveyProblem[]) => {
    setProblems(found);
    noteRefusal();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const answers = toSurveyAnswers(draft);
    if (!answers) {
      refuse([{ field: GATE_NAME, message: 'survey.gateRequired' }]);
      return;
    }
    setProblems([]);
    setSending(true);
    try {
      const refused = await onSubmit(answers);
      if (refused && refused.length > 0) refuse(refused);
    } finally {
      setSending(false);
    }
  }

  return (
    <Form onSubmit={(event) => void submit(event)} className="survey-form">
      <ol ref={areaRef} className="survey-form__questions">
        {RATING_QUESTIONS.map(({ field, question }) => (
          <li key={field} className="survey-form__question">
            <Slider
              label={t('survey.numbered', { number: QUESTION_NUMBERS[field], question: t(question) })}
              value={draft[field]}
              onChange={(value) => setDraft((previous) => ({ ...previous, [field]: value }))}
              valueLabel={(value) => t(QUALITY_LABELS[value] ?? 'survey.quality.sufficient')}
            />
          </li>
        ))}
        <li className="survey-form__question">
          <Slider
            label={t('survey.numbered', { number: QUESTION_NUMBERS.painMeasure, question: t('survey.question.painMeasure') })}
            value={draft.painMeasure}
            onChange={(value) => setDraft((previous) => ({ ...previous, painMeasure: value }))}
            valueLabel={(value) => t(PAIN_LABELS[value] ?? 'survey.pain.none')}
            reversed={PAIN_SCALE_REVERSED}
          />
        </li>
        <li className="survey-form__question">
          <RadioGroup
            name={GATE_NAME}
            label={t('survey.numbered', { number: QUESTION_NUMBERS.longTermPain, question: t('survey.question.longTermPain') })}
            value={draft.longTermPain === null ? null : String(draft.longTermPain)}
            onChange={(value) => {
              setProblems((current) => current.filter((problem) => problem.field !== GATE_NAME));
              setDraft((previous) => ({ ...previous, longTermPain: value === 'true' }));
            }}
            appearance="buttons"
            isRequired
            errorMessage={gateMessage ? t(gateMessage) : undefined}
          >
            <Radio value="true">{t('survey.yes')}</Radio>
            <Radio value="false">{t('survey.no')}</Radio>
          </RadioGroup>
        </li>
        <li className="survey-form__question">
          <Slider
            label={t('survey.numbered', { number: QUESTION_NUMBERS.longTermPainLevel, question: t('survey.question.longTermPainLevel') })}
            description={painAsked ? undefined : t('survey.painBlocked')}
            value={draft.longTermPainLevel}
            onChange={(value) => setDraft((previous) => ({ ...previous, longTermPainLevel: value }))}
            valueLabel={(value) => t(PAIN_LABELS[value] ?? 'survey.pain.none')}
            reversed={PAIN_SCALE_REVERSED}
            isDisabled={!painAsked}
          />
        </li>
      </ol>
      {/*
       * In the page from the start, so screen readers know the region before it speaks; next to
       * the send button, where she looks after pressing it. A new key per refusal announces the
       * same problem again.
       */}
      <div ref={alertRef} role="alert" tabIndex={-1} className={problems.length > 0 ? 'survey-alert' : 'survey-alert survey-alert--empty'}>
        {problems.length > 0 && (
          <div key={refusals}>
            <p className="survey-alert__title">{t('survey.errors.notSent')}</p>
            <ul className="survey-alert__problems">
              {problems.map((problem) => (
                <li key={`${problem.field}:${problem.message}`}>
                  {problem.field
                    ? t('survey.errors.question', { number: QUESTION_NUMBERS[problem.field], message: t(problem.message) })
                    : t(problem.message)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <div className="survey-form__actions">
        <Button variant="secondary" onPress={onCancel}>
          {t('survey.cancel')}
        </Button>
        <Button type="submit" isPending={sending}>
          {t('survey.send')}
        </Button>
      </div>
    </Form>
  );
}
